// Codex, the pinned version, against the OpenAI Responses stub (test/hosts/versions.json): what
// the model receives and what happens on disk, with agent-state wired by `integrate codex`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_CONTENT, FORBIDDEN_FILE } from './harness/host-repo.js';
import { codex } from './harness/hosts/codex.js';
import { allText, type StubRequest } from './harness/model-stub.js';
import { holdLogLock } from './harness/hold-log-lock.js';
import { hostSession, type HostSession } from './harness/run-host.js';

type Item = { type?: string; role?: string; call_id?: string; output?: unknown };

const input = (request: StubRequest | undefined): Item[] =>
  ((request?.body as { input?: Item[] } | null)?.input ?? []) as Item[];

/** The output Codex sent the model for one call id (function or custom tool). */
function outputOf(s: HostSession, callId: string): string {
  for (const turn of s.stub.turns()) {
    const item = input(turn).find(
      (i) => i.call_id === callId && (i.type ?? '').endsWith('_call_output'),
    );
    if (item) return allText(item.output);
  }
  throw new Error(`no output for ${callId} in ${s.stub.turns().length} requests`);
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('Codex', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(codex);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start (as developer context)', async () => {
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    const boot = input(s.stub.turns()[0]).filter((i) => allText(i).includes('# agent-state boot'));
    expect(boot).toHaveLength(1);
    expect(boot[0]!.role).toBe('developer');
    expect(allText(boot[0])).toContain('`src/storage/**` — frozen interface');
    expect(s.repo.events().filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
  });

  it('logs a failing command as ok: false and a passing one as ok: true', async () => {
    const before = s.repo.events().length;
    const run = await s.run('Run the checks', [
      { toolCalls: [{ name: 'exec_command', input: { cmd: 'echo failing; exit 3' }, id: 'c1' }] },
      { toolCalls: [{ name: 'exec_command', input: { cmd: 'echo passing' }, id: 'c2' }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(outputOf(s, 'c1')).toContain('exited with code 3');
    const finished = s.repo
      .events()
      .slice(before)
      .filter((e) => e.type === 'tool.finished');
    expect(finished).toMatchObject([
      { name: 'Bash', ok: false },
      { name: 'Bash', ok: true },
    ]);
  });

  it('tells the model of three failures in a row with a later command (PostToolUse runs in the background)', async () => {
    const fail = (n: number) => ({
      toolCalls: [
        { name: 'exec_command', input: { cmd: `echo failing ${n}; exit 3` }, id: `f${n}` },
      ],
    });
    const before = s.repo.events().length;
    const replies = [fail(1), fail(2), fail(3), fail(4), fail(5), { text: 'ok' }];
    const run = await s.run('Run the tests', replies);
    expect(run.code, run.stderr).toBe(0);
    expect(
      s.repo
        .events()
        .slice(before)
        .filter((e) => e.type === 'tool.finished'),
    ).toHaveLength(5);
    // Codex holds a background hook's answer until the next user turn: the signal comes from the
    // PreToolUse of a later command (the 4th, or the 5th when the 3rd one's record is still on its
    // way: the stub answers at once), next to its output; never before the third failure.
    const signal = /Bash failed \d times in a row: change approach/;
    const requests = s.stub.turns().map((t) => allText(t.body));
    expect(requests.slice(0, 4).join('\n')).not.toMatch(signal);
    expect(requests.slice(4).join('\n')).toMatch(signal);
  });

  it('records the last tool call of a session even while the event log is busy', async () => {
    const before = s.repo.events().length;
    const cmd = holdLogLock(s.repo);
    const run = await s.run('Check the tree', [
      { toolCalls: [{ name: 'exec_command', input: { cmd }, id: 'h' }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(s.repo.events().slice(before)).toContainEqual(
      expect.objectContaining({ type: 'tool.finished', name: 'Bash', ok: true }),
    );
  });

  // Every way Codex can write a file: apply_patch (update, add, delete) and exec_command with a
  // redirect, with a workdir, and after a cd. The default config enforces Forbidden globs.
  const writes: [string, Parameters<HostSession['run']>[1][number]][] = [
    [
      'apply_patch (update)',
      {
        toolCalls: [
          {
            name: 'apply_patch',
            input: patch(
              `*** Update File: ${FORBIDDEN_FILE}`,
              '@@',
              `-${FORBIDDEN_CONTENT.trim()}`,
              '+export const db = "thawed";',
            ),
            id: 'w',
          },
        ],
      },
    ],
    [
      'apply_patch (add)',
      {
        toolCalls: [
          {
            name: 'apply_patch',
            input: patch('*** Add File: src/storage/extra.ts', '+x'),
            id: 'w',
          },
        ],
      },
    ],
    [
      'apply_patch (delete)',
      {
        toolCalls: [
          { name: 'apply_patch', input: patch(`*** Delete File: ${FORBIDDEN_FILE}`), id: 'w' },
        ],
      },
    ],
    [
      'exec_command redirect',
      {
        toolCalls: [
          { name: 'exec_command', input: { cmd: `echo x > ${FORBIDDEN_FILE}` }, id: 'w' },
        ],
      },
    ],
    [
      'exec_command with a workdir',
      {
        toolCalls: [
          {
            name: 'exec_command',
            input: { cmd: 'echo x > db.ts', workdir: 'src/storage' },
            id: 'w',
          },
        ],
      },
    ],
    [
      'exec_command after cd',
      {
        toolCalls: [
          { name: 'exec_command', input: { cmd: 'cd src/storage && echo x > db.ts' }, id: 'w' },
        ],
      },
    ],
  ];
  for (const [how, call] of writes) {
    it(`refuses a Forbidden write through ${how}, and tells the model why`, async () => {
      s.repo.write(FORBIDDEN_FILE, FORBIDDEN_CONTENT);
      rmSync(join(s.repo.dir, 'src/storage/extra.ts'), { force: true });
      const run = await s.run('Change the storage layer', [call, { text: 'ok' }]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
      expect(() => s.repo.read('src/storage/extra.ts')).toThrow();
      const said = outputOf(s, 'w');
      expect(said).toContain('agent-state refused this tool call');
      expect(said).toContain('src/storage/');
      expect(said).toContain('ask the user');
      expect(said).not.toContain('..');
    });
  }

  it("warns about a step's file scope through additionalContext, and the model receives it", async () => {
    s.repo.cli(['current', '--objective', 'Add greet()', '--scope', 'src/app.ts']);
    try {
      const run = await s.run('Edit the readme', [
        {
          toolCalls: [
            {
              name: 'apply_patch',
              input: patch('*** Update File: README.md', '@@', '-# greeting', '+# greeting!'),
              id: 'p',
            },
          ],
        },
        { text: 'ok' },
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.repo.read('README.md')).toBe('# greeting!\n'); // warn: the tool ran
      const after = s.stub
        .turns()
        .slice(1)
        .map((t) => allText(t.body))
        .join('\n');
      expect(after).toContain(
        "agent-state warning: README.md is outside the current step's file scopes (src/app.ts)",
      );
    } finally {
      s.repo.cli(['current', '--clear']);
      s.repo.write('README.md', '# greeting\n');
    }
  });

  it('boots again after a real compaction (SessionStart source compact)', async () => {
    const before = s.repo.events().length;
    const run = await s.run(
      'Work until the context is full',
      [
        {
          toolCalls: [{ name: 'exec_command', input: { cmd: 'echo one' } }],
          usage: { input: 90_000 },
        },
        { text: 'SUMMARY: greet() is half done.' },
        { text: 'Continuing.' },
      ],
      { extraArgs: ['-c', 'model_auto_compact_token_limit=5000'] },
    );
    expect(run.code, run.stderr).toBe(0);
    const turns = s.stub.turns();
    const compaction = turns.findIndex((t) =>
      allText(t.body).includes('CONTEXT CHECKPOINT COMPACTION'),
    );
    expect(compaction).toBeGreaterThan(0);
    const next = allText(turns[compaction + 1]?.body);
    expect(next).toContain('SUMMARY: greet() is half done.');
    expect(next).toContain('# agent-state boot');
    expect(next).toContain('`src/storage/**` — frozen interface');
    const events = s.repo.events().slice(before);
    expect(events.filter((e) => e.type === 'compaction')).toMatchObject([
      { host: 'codex', trigger: 'auto' },
    ]);
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([
      { source: 'startup' },
      { source: 'compact' },
    ]);
  });
});

describe('Codex: Stop, with stop_checkpoint: block', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(codex, { config: { 'integrations.stop_checkpoint': 'block' } });
  });
  afterAll(() => s?.close());

  it('blocks once, and the model reads the reason as written', async () => {
    const run = await s.run('Start the step', [
      {
        toolCalls: [
          {
            name: 'exec_command',
            input: {
              cmd: 'agent-state plan add "Write greet" --id t1 && agent-state plan start t1',
            },
          },
        ],
      },
      { text: 'I am done.' },
      { text: 'Stopping now.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const turns = s.stub.turns();
    expect(turns).toHaveLength(3);
    const prompt = input(turns[2]).find((i) => allText(i).includes('hook_prompt'));
    const text = allText(prompt);
    expect(text).toContain('progress changed since the last checkpoint');
    expect(text).toContain('agent-state checkpoint -m');
    expect(text).not.toMatch(/&lt;|&gt;/);
  });
});

describe('Codex: MCP (integrate codex --mcp)', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(codex, { integrateArgs: ['--mcp'] });
  });
  afterAll(() => s?.close());

  it("lists agent-state's tools through tool_search, and one call returns the status", async () => {
    const run = await s.run('What is the task?', [
      {
        rawItems: [
          {
            type: 'tool_search_call',
            call_id: 'ts',
            execution: 'client',
            status: 'completed',
            arguments: { query: 'agent-state task status' },
          },
        ],
      },
      { toolCalls: [{ name: 'status', namespace: 'mcp__agent_state', input: {}, id: 'st' }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const found = input(s.stub.turns()[1]).find((i) => i.type === 'tool_search_output') as
      { tools: { name: string; tools?: { name: string }[] }[] } | undefined;
    const ours = found?.tools.find((t) => t.name === 'mcp__agent_state');
    // Codex hands the model its best matches for the query: a handful of the eight, status first.
    const names = ours?.tools?.map((t) => t.name) ?? [];
    const ALL = [
      'boot',
      'status',
      'next',
      'plan_update',
      'done',
      'check',
      'evidence_add',
      'checkpoint',
    ];
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(ALL).toEqual(expect.arrayContaining(names));
    expect(names[0]).toBe('status');
    expect(outputOf(s, 'st')).toContain('Add a greet() function');
  });
});
