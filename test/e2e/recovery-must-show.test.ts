// Issue 11's "must show", checked from outside: the CLI, `hook <host>` with the hosts'
// payloads, the real MCP SDK client, real git repositories. A boot writes no committed file;
// progress ends a restart loop and only a real loop warns; Gemini CLI's PreCompress on every turn
// counts nothing; a 0.1.0 progress.yaml keeps working; a reverted Forbidden edit stops its signal
// everywhere; a signal that stays on is not sent again with every tool call.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UiSource } from '../../src/ui/ui-source.js';
import { BIN, git, runCli } from '../helpers/fixtures.js';
import { Session } from './scenarios/session.js';

const LOOP = 'You are in a restart loop';

async function statusline(s: Session): Promise<string> {
  return (await s.cli('statusline')).stdout;
}

async function withMcp<T>(repo: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
  });
  const client = new Client({ name: 'must-show', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

async function mcpCall(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { text: string }[];
  };
  return JSON.parse(result.content[0]!.text) as Record<string, unknown>;
}

describe('a boot writes no committed file', () => {
  it('after `boot`, `hook claude` SessionStart, and PreCompact + SessionStart(compact), git status -- .agent/state is empty', async () => {
    const s = await Session.start();
    expect(s.stateStatus()).toBe('');
    await s.cli('boot');
    expect(s.stateStatus()).toBe('');
    expect(await s.sessionStart('startup')).toContain('# agent-state boot');
    expect(s.stateStatus()).toBe('');
    await s.preCompact('auto');
    expect(await s.sessionStart('compact')).toContain('Your context was just compacted');
    expect(s.stateStatus()).toBe('');
    await s.cli('status');
    await statusline(s);
    expect(s.stateStatus()).toBe('');
    // Counted where it belongs.
    expect(s.recovery()).toMatchObject({ boots: 3, compactions: 1 });
    expect(git(s.repo, 'status', '--porcelain')).toBe('');
  }, 120_000);
});

describe('the restart loop', () => {
  it('20 sessions that each make progress: no loop warning in any boot or status line; 3 boots with no progress: the warning at the third', async () => {
    const s = await Session.start();
    await s.cli('checkpoint', '-m', 'Start', '--commit');
    const boots: string[] = [];
    const lines: string[] = [];
    await withMcp(s.repo, async (client) => {
      for (let i = 1; i <= 20; i++) {
        boots.push(await s.sessionStart(i === 1 ? 'startup' : 'resume'));
        await s.agentRead();
        lines.push(await statusline(s));
        // Progress by turns: the next action through the CLI or MCP, a recorded edit, a plan step.
        if (i % 4 === 0) await mcpCall(client, 'next', { text: `Step ${i} through MCP` });
        else if (i % 4 === 1) await s.cli('next', `Step ${i}`);
        else if (i % 4 === 2) await s.agentEdit(`src/part${i}.js`, `export default ${i};\n`);
        else await s.cli('memory', 'add', `Learned ${i}`);
      }
    });
    expect(boots).toHaveLength(20);
    for (const text of boots) {
      expect(text).toContain('# agent-state boot');
      expect(text).not.toContain(LOOP);
      expect(text).not.toContain('a full rescan');
    }
    for (const line of lines) expect(line).not.toMatch(/restart/);
    const events = JSON.parse((await s.cli('events', '--type', 'boot', '--json')).stdout) as {
      events: { stalled: number; level: number }[];
    };
    // A resume is no boot for the loop count (the session kept its conversation): after the
    // progress before each one, no boot is in a row.
    expect(events.events.map((e) => e.stalled)).toEqual([1, ...Array(19).fill(0)]);
    expect(new Set(events.events.slice(1).map((e) => e.level))).toEqual(new Set([1]));
    // Resumes with nothing moved between them are no loop either.
    for (let i = 0; i < 3; i++) {
      expect(await s.sessionStart('resume')).not.toContain(LOOP);
      await s.agentRead();
    }

    // Three new sessions with nothing moved between them: the third warns, and so does the
    // status line.
    const first = await s.sessionStart('startup');
    await s.agentRead();
    const second = await s.sessionStart('startup');
    await s.agentRead();
    expect(await statusline(s)).not.toMatch(/restart/);
    const third = await s.sessionStart('startup');
    expect(first).not.toContain(LOOP);
    expect(second).not.toContain(LOOP);
    expect(third).toContain(LOOP);
    expect(third).toContain('level 3 (rebuild)');
    expect(await statusline(s)).toMatch(/⚠ 3 restarts in a row without progress/);
    const status = JSON.parse((await s.cli('status', '--json')).stdout) as {
      signals: { id: string }[];
    };
    expect(status.signals.map((x) => x.id)).toContain('restart.loop');
    // Progress ends it at once: the status line stops warning.
    await s.cli('next', 'Try a different approach');
    expect(await statusline(s)).not.toMatch(/restart/);
    const after = JSON.parse((await s.cli('status', '--json')).stdout) as {
      signals: { id: string }[];
    };
    expect(after.signals.map((x) => x.id)).not.toContain('restart.loop');
  }, 600_000);
});

describe('Gemini CLI: PreCompress on every turn', () => {
  it('four PreCompress + BeforeAgent turns without a compression: 0 compactions, no boot; one real compression: exactly 1', async () => {
    const s = await Session.start();
    const start = await s.sessionStart('startup', 'gemini');
    expect(start).toContain('# agent-state boot');
    const prompts: string[] = [];
    for (let i = 0; i < 4; i++) prompts.push(await s.geminiTurn(false));
    prompts.push(await s.prompt('go on', 'gemini'));
    for (const text of prompts) expect(text).not.toContain('# agent-state boot');
    expect(s.recovery()).toMatchObject({ compactions: 0, boots: 1 });
    expect(await s.bootCount()).toBe(1);
    // One real compression, then more turns without one.
    await s.geminiTurn(true);
    const booted = await s.prompt('go on', 'gemini');
    expect(booted).toContain('# agent-state boot');
    expect(booted).toContain('Your context was just compacted');
    for (let i = 0; i < 3; i++) expect(await s.geminiTurn(false)).not.toContain('agent-state boot');
    expect(s.recovery().compactions).toBe(1);
    const events = JSON.parse((await s.cli('events', '--type', 'compaction', '--json')).stdout) as {
      events: { confirmed_by: string }[];
    };
    expect(events.events.map((e) => e.confirmed_by)).toEqual(['transcript']);
    expect(s.stateStatus()).toBe('');
  }, 300_000);
});

// A progress.yaml as agent-state 0.1.0 wrote it: the boot and compaction counters in the stamp.
const PROGRESS_010 = `# yaml-language-server: $schema=https://unpkg.com/agent-state/schemas/progress.schema.json
# Where this task stands. Written by agent-state; hand edits are validated (docs/protocol.md).
version: 1
revision: 9
stage: implementing
next_action: Write test/pagination.test.js
plan:
  - id: t1
    title: Write the pagination test
    status: running
  - id: t2
    title: Implement pagination in the route handler
    status: pending
current_step: null
markers: {}
memory:
  durable:
    - Handlers live in src/
  working: []
reminders:
  - text: Ask about the page size
    at: "2026-11-30T13:00:00.000Z"
stamp:
  boots: 12
  checkpoints: 0
  last_boot: "2026-11-30T14:10:00.000Z"
  last_checkpoint: null
  recovery_level: 3
  stalled_boots: 2
  compactions: 4
  last_compaction: "2026-11-30T14:00:00.000Z"
  recent_next_actions:
    - text: Write test/pagination.test.js
      at: "2026-11-30T12:00:00.000Z"
fingerprint: null
`;

describe('a 0.1.0 progress.yaml with stamp counters', () => {
  it('every command works, validate passes, nothing is lost, and the counters move on the next write', async () => {
    const s = await Session.start();
    const file = join(s.repo, '.agent/state/progress.yaml');
    writeFileSync(file, PROGRESS_010);
    git(s.repo, 'add', '-A');
    git(s.repo, 'commit', '-q', '-m', 'a 0.1.0 state');
    const validated = JSON.parse((await s.cli('validate', '--json')).stdout) as { ok: boolean };
    expect(validated.ok).toBe(true);
    // Read-only commands: they work and write nothing.
    for (const args of [
      ['status'],
      ['status', '--json'],
      ['status', '--format', 'xml'],
      ['statusline'],
      ['boot', '--dry-run'],
      ['plan', 'list'],
      ['memory', 'list'],
      ['remind', '--json'],
      ['events'],
      ['fingerprint'],
      ['check', 't1'],
      ['doctor'],
    ]) {
      const code = args[0] === 'check' ? 1 : 0; // t1 has no marker: not done
      if (args[0] === 'doctor') await runCli(s.repo, args);
      else await s.cliExpect(code, ...args);
    }
    expect(readFileSync(file, 'utf8')).toBe(PROGRESS_010);
    const status = JSON.parse((await s.cli('status', '--json')).stdout) as {
      boots: number;
      compactions: number;
    };
    expect(status).toMatchObject({ boots: 12, compactions: 4 });
    // A boot counts on from the old numbers, and still writes no committed file.
    const boot = JSON.parse((await s.cli('boot', '--json')).stdout) as {
      stamp: Record<string, unknown>;
      reminders: { text: string }[];
    };
    expect(boot.stamp).toMatchObject({ boots: 13, compactions: 4, checkpoints: 0 });
    expect(boot.reminders.map((r) => r.text)).toEqual(['Ask about the page size']);
    expect(readFileSync(file, 'utf8')).toBe(PROGRESS_010);
    // Writing commands work; the first write moves the counters and drops the shown reminder.
    await s.cli('next', 'Make the test pass');
    const moved = readFileSync(file, 'utf8');
    for (const key of ['boots:', 'last_boot:', 'recovery_level:', 'stalled_boots:', 'compactions:'])
      expect(moved).not.toContain(key);
    expect(moved).toContain('checkpoints: 0');
    expect(moved).toContain('- Handlers live in src/');
    expect(moved).toContain('recent_next_actions:');
    expect(moved).not.toContain('Ask about the page size');
    expect(s.recovery()).toMatchObject({ boots: 13, compactions: 4 });
    for (const args of [
      ['plan', 'add', 'Document the parameters', '--id', 't3'],
      ['plan', 'start', 't2'],
      ['memory', 'add', 'limit defaults to 50'],
      ['remind', 'Rebase before the review'],
      ['current', '--objective', 'Implement it', '--scope', 'src/**'],
      ['evidence', 'add', '--kind', 'decision', '--summary', 'Slice in the handler'],
      ['event', 'tool.finished', '--field', 'name=read'],
    ])
      await s.cli(...args);
    await s.agentEdit('test/pagination.test.js', "import test from 'node:test';\n");
    await s.cli('done', 't1', '--files', 'test/pagination.test.js');
    await s.cli('check', 't1');
    await s.cli('checkpoint', '-m', 'After the upgrade', '--commit');
    await s.cli('verify');
    expect(JSON.parse((await s.cli('validate', '--json')).stdout)).toMatchObject({ ok: true });
    const json = JSON.parse((await s.cli('status', '--json')).stdout) as {
      boots: number;
      compactions: number;
      plan: { total: number; done: number };
    };
    expect(json).toMatchObject({ boots: 13, compactions: 4, plan: { total: 3, done: 1 } });
  }, 300_000);
});

describe('signals stop when their cause stops', () => {
  it('a reverted Forbidden change clears its signal: status, the status line, MCP status, verify and the ui page agree', async () => {
    const s = await Session.start();
    await s.cli('checkpoint', '-m', 'Start', '--commit');
    await s.sessionStart('startup');
    const changed = await s.agentEdit('src/storage/db.js', 'export const db = new WeakMap();\n');
    expect(changed).toContain('src/storage/db.js is in a Forbidden zone');
    const look = async () => {
      const status = JSON.parse((await s.cli('status', '--json')).stdout) as {
        signals: { id: string }[];
      };
      const line = await statusline(s);
      const mcp = await withMcp(s.repo, (client) => mcpCall(client, 'status'));
      const verify = await runCli(s.repo, ['verify', '--json']);
      const page = await new UiSource({ cwd: s.repo }).model();
      return {
        status: status.signals.some((x) => x.id === 'forbidden.modified'),
        line: line.includes('Forbidden'),
        mcp: (mcp.signals as string[]).some((m) => m.includes('Forbidden')),
        verify: (JSON.parse(verify.stdout) as { forbidden: unknown[] }).forbidden.length > 0,
        ui: page.signals.some((x) => x.id === 'forbidden.modified'),
      };
    };
    expect(await look()).toEqual({ status: true, line: true, mcp: true, verify: true, ui: true });
    git(s.repo, 'checkout', '--', 'src/storage/db.js');
    expect(await look()).toEqual({
      status: false,
      line: false,
      mcp: false,
      verify: false,
      ui: false,
    });
    // The agent is told at its next tool call that the signal no longer applies.
    const told = await s.agentRead();
    expect(told).toContain('<signals removed="true">');
  }, 300_000);

  it('a signal that stays on is sent once, not again with every tool call; its end is sent once', async () => {
    const s = await Session.start();
    await s.sessionStart('startup');
    const fail = () =>
      s.hook('claude', {
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        error: 'exit 1',
      });
    const outs: string[] = [];
    for (let i = 0; i < 10; i++) outs.push(await fail());
    // The signal fires at the third failure; failures four to ten say nothing new.
    expect(outs.slice(0, 2)).toEqual(['', '']);
    expect(outs[2]).toContain('tool.repeated_failures');
    expect(outs.slice(3)).toEqual(Array(7).fill(''));
    const gone = await s.agentRead();
    expect(gone).toContain('<signals removed="true">');
    expect(await s.agentRead()).toBe('');
    // The counts the tool calls moved go out with the next prompt's delta.
    expect(await s.prompt()).toContain('failures="10"');
  }, 300_000);
});
