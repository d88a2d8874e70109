// The small pure parts: Markdown chunking, bullets, memory, the current step, reminders and the
// next-action history.
import { describe, expect, it } from 'vitest';
import { bullet, chunkMarkdown } from '../../src/boot/model.js';
import { setCurrentStep } from '../../src/state/current-step.js';
import { parseGoals } from '../../src/state/goals.js';
import {
  addMemory,
  dropMemory,
  listMemory,
  parseMemoryRef,
  promoteMemory,
} from '../../src/state/memory.js';
import { recordNextAction } from '../../src/task/update-progress.js';
import { queueReminder, takeReminders } from '../../src/state/reminders.js';
import type { Progress } from '../../src/types.js';

const fresh = (): Progress => ({ version: 1, revision: 0 });
const NOW = new Date('2026-11-30T15:00:00.000Z');

describe('chunkMarkdown', () => {
  it('splits paragraphs and list items but never a fenced block or an item with its continuation', () => {
    const text = [
      'First paragraph',
      'continues here.',
      '',
      '- item one',
      '- item two',
      '  continued',
      '',
      '  still item two',
      '```js',
      'const a = 1;',
      '',
      'const b = 2;',
      '```',
      '',
      'Last.',
    ].join('\n');
    expect(chunkMarkdown(text)).toEqual([
      { text: 'First paragraph\ncontinues here.', sep: '\n' },
      { text: '- item one', sep: '\n\n' },
      { text: '- item two\n  continued\n\n  still item two', sep: '\n' },
      { text: '```js\nconst a = 1;\n\nconst b = 2;\n```', sep: '\n' },
      { text: 'Last.', sep: '\n\n' },
    ]);
    expect(chunkMarkdown('\n\n')).toEqual([]);
  });

  it('indents continuation lines of a bullet, but not blank ones', () => {
    expect(bullet('a\n\n```\nx\n```')).toBe('- a\n\n  ```\n  x\n  ```');
  });
});

describe('goals.md items', () => {
  it('keep an indented code block after a blank line inside the list item', () => {
    const { goals } = parseGoals(
      '# T\n\nGoal.\n\n## Constraints\n\n- Keep this signature:\n\n  ```js\n  f(a, b)\n  ```\n- No new dependencies\n',
    );
    expect(goals.constraints).toEqual([
      'Keep this signature:\n\n```js\nf(a, b)\n```',
      'No new dependencies',
    ]);
  });
});

describe('memory', () => {
  it('adds, lists with labels, promotes only working notes, drops', () => {
    const p = fresh();
    addMemory(p, ' limit defaults to 50 ', 'working');
    addMemory(p, 'Handlers live in src/routes/', 'durable');
    addMemory(p, 'Seed data: 137 todos', 'working');
    expect(listMemory(p).map((n) => `${n.label}:${n.text}`)).toEqual([
      'd1:Handlers live in src/routes/',
      'w1:limit defaults to 50',
      'w2:Seed data: 137 todos',
    ]);
    expect(parseMemoryRef('2')).toEqual({ kind: 'working', index: 2 });
    expect(parseMemoryRef('D3')).toEqual({ kind: 'durable', index: 3 });
    expect(promoteMemory(p, parseMemoryRef('w2')).label).toBe('d2');
    expect(() => promoteMemory(p, parseMemoryRef('d1'))).toThrow(/already durable/);
    expect(dropMemory(p, parseMemoryRef('w1')).text).toBe('limit defaults to 50');
    expect(p.memory).toEqual({
      durable: ['Handlers live in src/routes/', 'Seed data: 137 todos'],
      working: [],
    });
    expect(() => dropMemory(p, parseMemoryRef('w1'))).toThrow(/no memory note w1/);
    expect(() => parseMemoryRef('0')).toThrow(/not a memory note number/);
    expect(() => addMemory(p, 'x'.repeat(2001), 'working')).toThrow(/over the limit/);
  });
});

describe('current step', () => {
  it('replaces given fields, removes emptied ones, checks scopes and tool conflicts', () => {
    const p = fresh();
    p.current_step = { id: 't1', objective: 'Old' };
    setCurrentStep(p, {
      objective: 'New',
      allowTools: ['Read,Edit', ' Bash '],
      scopes: ['src/**'],
    });
    expect(p.current_step).toEqual({
      id: 't1',
      objective: 'New',
      allowed_tools: ['Read', 'Edit', 'Bash'],
      file_scopes: ['src/**'],
    });
    setCurrentStep(p, { allowTools: [''], constraints: ['Keep it small'] });
    expect(p.current_step).toEqual({
      id: 't1',
      objective: 'New',
      file_scopes: ['src/**'],
      constraints: ['Keep it small'],
    });
    for (const scope of ['../x', '/abs', 'C:/win', 'a\\b', 'src/../../x']) {
      expect(() => setCurrentStep(p, { scopes: [scope] }), scope).toThrow(
        /not a path glob inside the repository/,
      );
    }
    expect(() => setCurrentStep(p, { allowTools: ['Bash'], denyTools: ['Bash'] })).toThrow(
      /both allowed and denied/,
    );
    expect(setCurrentStep(p, { clear: true })).toBeNull();
    expect(setCurrentStep(p, { clear: true, objective: 'Fresh' })).toEqual({ objective: 'Fresh' });
  });
});

describe('reminders and the next-action history', () => {
  it('queues and takes reminders', () => {
    const p = fresh();
    expect(takeReminders(p)).toEqual([]);
    expect(p.reminders).toBeUndefined();
    queueReminder(p, 'Ask about the page size', NOW);
    expect(takeReminders(p)).toEqual([{ text: 'Ask about the page size', at: NOW.toISOString() }]);
    expect(p.reminders).toEqual([]);
    expect(() => queueReminder(p, ' ', NOW)).toThrow(/empty/);
  });

  it('records a changed next action, at most five', () => {
    const before = fresh();
    const after: Progress = { ...fresh(), next_action: 'A' };
    recordNextAction(before, after, NOW);
    expect(after.stamp?.recent_next_actions).toEqual([{ text: 'A', at: NOW.toISOString() }]);
    recordNextAction(after, structuredClone(after), NOW);
    expect(after.stamp?.recent_next_actions).toHaveLength(1);
    let current = after;
    for (const text of ['B', 'C', 'D', 'E', 'F']) {
      const next = { ...structuredClone(current), next_action: text };
      recordNextAction(current, next, NOW);
      current = next;
    }
    expect(current.stamp!.recent_next_actions!.map((h) => h.text)).toEqual([
      'B',
      'C',
      'D',
      'E',
      'F',
    ]);
  });
});
