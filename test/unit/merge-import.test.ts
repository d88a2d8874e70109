// mergeImport, the pure step of `agent-state import`: what it adds to a progress value, what it
// leaves alone, and what it refuses.
import { describe, expect, it } from 'vitest';
import type { ImportSource } from '../../src/import/import-source.js';
import { mergeImport } from '../../src/import/import-state.js';
import type { Progress } from '../../src/types.js';

const source = (over: Partial<ImportSource> = {}): ImportSource => ({
  format: 'beads',
  files: ['.beads/issues.jsonl'],
  memory: { durable: [], working: [] },
  items: [
    { source: 'beads#a', title: 'A', status: 'done', needs: [] },
    { source: 'beads#b', title: 'B', status: 'pending', needs: ['beads#a', 'beads#gone'] },
  ],
  warnings: [],
  ...over,
});
const empty = (): Progress => ({ version: 1, revision: 0, next_action: '' });

describe('mergeImport', () => {
  it('adds items with their source and status, maps needs to the new ids, drops unknown ones', () => {
    const progress = empty();
    const result = mergeImport(progress, '', source(), null);
    const [a, b] = progress.plan!;
    expect(progress.plan).toEqual([
      { id: a!.id, title: 'A', status: 'done', source: 'beads#a' },
      { id: b!.id, title: 'B', status: 'pending', source: 'beads#b', depends_on: [a!.id] },
    ]);
    expect(result).toMatchObject({ changed: true, unchanged: [], added: progress.plan });
    expect(result.warnings).toEqual([
      'beads#b needs beads#gone, which is not in the files: that need was dropped',
    ]);
  });

  it('leaves items imported before as they are, and points new needs at them', () => {
    const progress = empty();
    mergeImport(progress, '', source(), null);
    progress.plan![1]!.status = 'running';
    const grown = source();
    grown.items[1] = { ...grown.items[1]!, status: 'blocked', title: 'B renamed there' };
    grown.items.push({ source: 'beads#c', title: 'C', status: 'pending', needs: ['beads#b'] });
    const result = mergeImport(progress, '', grown, null);
    expect(result.unchanged).toEqual(['beads#a', 'beads#b']);
    expect(result.added).toMatchObject([
      { title: 'C', status: 'pending', source: 'beads#c', depends_on: [progress.plan![1]!.id] },
    ]);
    expect(progress.plan![1]).toMatchObject({ title: 'B', status: 'running' });
    expect(mergeImport(progress, '', grown, null).changed).toBe(false);
  });

  it('fills an empty goal and next action, keeps set ones, adds each memory note once', () => {
    const files = source({
      goal: 'Ship it',
      nextAction: '  Write   the tests ',
      memory: { durable: ['Tabs, not spaces'], working: ['Blocked on CI'] },
    });
    const progress = empty();
    const first = mergeImport(progress, '', files, null);
    expect(first.goal).toEqual({ action: 'set', text: 'Ship it' });
    expect(first.next_action).toEqual({ action: 'set', text: 'Write the tests' });
    expect(progress).toMatchObject({
      next_action: 'Write the tests',
      memory: { durable: ['Tabs, not spaces'], working: ['Blocked on CI'] },
    });
    const again = mergeImport(progress, 'Ship it', files, null);
    expect(again).toMatchObject({
      changed: false,
      goal: { action: 'same' },
      next_action: { action: 'same' },
      memory: { durable: [], working: [] },
    });
    progress.next_action = 'Something else';
    expect(mergeImport(progress, 'Another goal', files, null)).toMatchObject({
      goal: { action: 'kept', text: 'Ship it' },
      next_action: { action: 'kept', text: 'Write the tests' },
    });
    expect(progress.next_action).toBe('Something else');
    expect(mergeImport(empty(), '', source(), null).goal).toEqual({ action: 'none', text: null });
  });

  it('refuses needs that go round in a circle, naming the sources', () => {
    const circle = source({
      items: [
        { source: 'beads#a', title: 'A', status: 'pending', needs: ['beads#b'] },
        { source: 'beads#b', title: 'B', status: 'pending', needs: ['beads#a'] },
      ],
    });
    expect(() => mergeImport(empty(), '', circle, null)).toThrow(
      expect.objectContaining({
        code: 'INVALID',
        message: 'the needs in the files go round in a circle: beads#a → beads#b → beads#a',
      }),
    );
  });
});
