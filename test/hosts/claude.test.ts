// Claude Code, the pinned version, against the Anthropic Messages stub (test/hosts/versions.json):
// what the model receives and what happens on disk, with agent-state wired by `integrate claude`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_CONTENT, FORBIDDEN_FILE } from './harness/host-repo.js';
import { claude } from './harness/hosts/claude.js';
import { allText, type Reply, type StubRequest } from './harness/model-stub.js';
import { holdLogLock } from './harness/hold-log-lock.js';
import { hostSession, type HostSession } from './harness/run-host.js';

type Block = { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
type Message = { role: string; content: string | Block[] };

const messages = (request: StubRequest | undefined): Message[] =>
  (request?.body as { messages?: Message[] } | null)?.messages ?? [];

/** The tool_result Claude Code sent the model for one tool_use id. */
function resultOf(s: HostSession, id: string): Block {
  for (const turn of s.stub.turns())
    for (const m of messages(turn))
      if (Array.isArray(m.content))
        for (const b of m.content) if (b.type === 'tool_result' && b.tool_use_id === id) return b;
  throw new Error(`no tool_result for ${id} in ${s.stub.turns().length} requests`);
}

const NOTEBOOK = 'src/storage/schema.ipynb';
const NOTEBOOK_CONTENT = '{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}\n';
const read = (file: string): Reply => ({
  toolCalls: [{ name: 'Read', input: { file_path: file } }],
});

describe('Claude Code', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start, and logs a failing command as ok: false', async () => {
    const run = await s.run('Start the task', [
      { toolCalls: [{ name: 'Bash', input: { command: 'echo hi; exit 3', description: 'fail' } }] },
      { toolCalls: [{ name: 'Bash', input: { command: 'echo fine', description: 'pass' } }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const first = allText(s.stub.turns()[0]!.body);
    expect(first).toContain('SessionStart hook additional context: # agent-state boot');
    expect(first).toContain('`src/storage/**` — frozen interface');
    const events = s.repo.events();
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
    expect(events.filter((e) => e.type === 'tool.finished')).toMatchObject([
      { name: 'Bash', ok: false },
      { name: 'Bash', ok: true },
    ]);
  });

  // Every way Claude Code 2.1.332 offers to write a file: Write, Edit, NotebookEdit (deferred:
  // loaded through ToolSearch), Bash with a redirect, after a cd on the same line, and in the
  // directory an earlier Bash call moved to (Claude Code keeps the shell's working directory).
  const writes: [string, Reply[]][] = [
    [
      'Write',
      [
        {
          toolCalls: [
            { name: 'Write', input: { file_path: FORBIDDEN_FILE, content: 'x' }, id: 'w' },
          ],
        },
      ],
    ],
    [
      'Edit',
      [
        read(FORBIDDEN_FILE),
        {
          toolCalls: [
            {
              name: 'Edit',
              input: { file_path: FORBIDDEN_FILE, old_string: 'frozen', new_string: 'thawed' },
              id: 'w',
            },
          ],
        },
      ],
    ],
    [
      'NotebookEdit',
      [
        {
          toolCalls: [
            { name: 'ToolSearch', input: { query: 'select:NotebookEdit', max_results: 1 } },
          ],
        },
        read(NOTEBOOK),
        {
          toolCalls: [
            {
              name: 'NotebookEdit',
              input: {
                notebook_path: NOTEBOOK,
                new_source: 'x = 1',
                cell_type: 'code',
                edit_mode: 'insert',
              },
              id: 'w',
            },
          ],
        },
      ],
    ],
    [
      'Bash redirect',
      [
        {
          toolCalls: [
            {
              name: 'Bash',
              input: { command: `echo x > ${FORBIDDEN_FILE}`, description: 'w' },
              id: 'w',
            },
          ],
        },
      ],
    ],
    [
      'Bash after cd',
      [
        {
          toolCalls: [
            {
              name: 'Bash',
              input: { command: 'cd src/storage && echo x > db.ts', description: 'w' },
              id: 'w',
            },
          ],
        },
      ],
    ],
    [
      "Bash in an earlier call's directory",
      [
        { toolCalls: [{ name: 'Bash', input: { command: 'cd src/storage', description: 'cd' } }] },
        {
          toolCalls: [
            { name: 'Bash', input: { command: 'echo x > db.ts', description: 'w' }, id: 'w' },
          ],
        },
      ],
    ],
  ];
  for (const [how, script] of writes) {
    it(`refuses a Forbidden write through ${how}, and tells the model why`, async () => {
      s.repo.write(FORBIDDEN_FILE, FORBIDDEN_CONTENT);
      s.repo.write(NOTEBOOK, NOTEBOOK_CONTENT);
      const run = await s.run('Change the storage layer', [...script, { text: 'ok' }]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
      expect(s.repo.read(NOTEBOOK)).toBe(NOTEBOOK_CONTENT);
      const result = resultOf(s, 'w');
      expect(result.is_error).toBe(true);
      const said = allText(result.content);
      expect(said).toContain('agent-state refused this tool call: src/storage/');
      expect(said).toContain('ask the user');
      expect(said).toContain('AGENT_STATE_ALLOW_FORBIDDEN=1');
    });
  }

  it("puts a step warning after the tool's result: the tool has run by then", async () => {
    s.repo.cli(['current', '--objective', 'Add greet()', '--scope', 'src/app.ts']);
    try {
      const run = await s.run('Add a note', [
        { toolCalls: [{ name: 'Write', input: { file_path: 'NOTES.md', content: 'x' }, id: 'n' }] },
        { text: 'ok' },
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.repo.read('NOTES.md')).toBe('x');
      const after = messages(s.stub.turns()[1]).slice(-2);
      expect(allText(after[0])).toContain('File created successfully');
      expect(allText(after[1])).toContain(
        "PreToolUse:Write hook additional context: agent-state warning: NOTES.md is outside the current step's file scopes (src/app.ts)",
      );
    } finally {
      s.repo.cli(['current', '--clear']);
    }
  });

  // PostToolUse runs async (it never holds the next step): what it says arrives with a later request.
  it('tells the model of three failures in a row, and records every call before the session ends', async () => {
    const fail = (i: number): Reply => ({
      toolCalls: [{ name: 'Bash', input: { command: `exit 1 # ${i}`, description: 'f' } }],
    });
    const before = s.repo.events().filter((e) => e.type === 'tool.finished').length;
    const replies = [fail(1), fail(2), fail(3), fail(4), fail(5), { text: 'ok' }];
    const run = await s.run('Run the tests', replies);
    expect(run.code, run.stderr).toBe(0);
    const finished = s.repo.events().filter((e) => e.type === 'tool.finished');
    expect(finished.slice(before)).toMatchObject(Array(5).fill({ name: 'Bash', ok: false }));
    // PostToolUse runs in the background: its answer comes with a later request (the stub answers
    // at once, so the 3rd failure's may come after the 4th's, which counts 4), never before the
    // third failure's result.
    const seen = s.stub.turns().map((t) => allText(t.body));
    const told = seen.findIndex((text) =>
      /Bash failed \d times in a row: change approach/.test(text),
    );
    expect(told).toBeGreaterThanOrEqual(3);
  });

  // `claude -p` exits without waiting for a background hook: the Stop hook waits for it instead.
  // The tool call leaves the event log locked for 1.5 s, so its PostToolUse is still waiting when
  // the model has answered.
  it('records the last tool call of a session even while the event log is busy', async () => {
    const before = s.repo.events().length;
    const hold = holdLogLock(s.repo);
    const run = await s.run('Check the tree', [
      { toolCalls: [{ name: 'Bash', input: { command: hold, description: 's' } }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(s.repo.events().slice(before)).toContainEqual(
      expect.objectContaining({ type: 'tool.finished', name: 'Bash', ok: true }),
    );
  });

  it('boots again after a real compaction (/compact), and records it', async () => {
    const before = s.repo.events().length;
    const user = (text: string) =>
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
    const run = await s.run(
      '',
      [
        { text: 'Working on it.' },
        { text: '<summary>SUMMARY: greet() is half done.</summary>' },
        { text: 'Continuing.' },
      ],
      {
        rawArgs: [
          '-p',
          '--input-format',
          'stream-json',
          '--output-format',
          'stream-json',
          '--verbose',
          '--dangerously-skip-permissions',
        ],
        stdin: user('Start the task') + user('/compact') + user('Continue'),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const turns = s.stub.turns();
    expect(turns).toHaveLength(3);
    expect(allText(turns[1]!.body)).toContain('create a detailed summary of the conversation');
    const after = allText(turns[2]!.body);
    expect(after).toContain('SUMMARY: greet() is half done.');
    expect(after).toContain('# agent-state boot');
    expect(after).toContain('`src/storage/**` — frozen interface');
    const events = s.repo.events().slice(before);
    expect(events.filter((e) => e.type === 'compaction')).toMatchObject([
      { host: 'claude', trigger: 'manual' },
    ]);
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([
      { source: 'startup' },
      { source: 'compact' },
    ]);
  });
});

describe('Claude Code: Stop, with stop_checkpoint: block', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude, { config: { 'integrations.stop_checkpoint': 'block' } });
  });
  afterAll(() => s?.close());

  it('blocks once, and the model reads the reason', async () => {
    const run = await s.run('Start the step', [
      {
        toolCalls: [
          {
            name: 'Bash',
            input: {
              command: 'agent-state plan add "Write greet" --id t1 && agent-state plan start t1',
              description: 'plan',
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
    const last = allText(messages(turns[2]).at(-1));
    expect(last).toContain('progress changed since the last checkpoint');
    expect(last).toContain('agent-state checkpoint -m "a one-line summary of what was done"');
  });
});

describe('Claude Code: MCP (integrate claude --mcp)', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude, { integrateArgs: ['--mcp'] });
  });
  afterAll(() => s?.close());

  it("lists agent-state's tools, and one call returns the status", async () => {
    const run = await s.run('What is the task?', [
      { toolCalls: [{ name: 'ToolSearch', input: { query: 'agent-state', max_results: 10 } }] },
      { toolCalls: [{ name: 'mcp__agent-state__status', input: {}, id: 'st' }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const listed = allText(s.stub.turns()[0]!.body);
    for (const tool of [
      'boot',
      'status',
      'next',
      'plan_update',
      'done',
      'check',
      'evidence_add',
      'checkpoint',
    ])
      expect(listed).toContain(`mcp__agent-state__${tool}`);
    const result = resultOf(s, 'st');
    expect(result.is_error).toBeFalsy();
    expect(allText(result.content)).toContain('Add a greet() function');
  });
});
