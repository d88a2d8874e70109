// OpenCode, the pinned version, against the chat completions stub (test/hosts/versions.json).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_CONTENT, FORBIDDEN_FILE } from './harness/host-repo.js';
import {
  OPENCODE_CONTEXT,
  OPENCODE_OTHER_MODEL,
  opencode,
  opencodeDriver,
} from './harness/hosts/opencode.js';
import { allText, type Reply } from './harness/model-stub.js';
import { chatMessages, chatSystem, chatTools, isTitleRequest } from './harness/openai-chat.js';
import { holdLogLock } from './harness/hold-log-lock.js';
import { hostSession, type HostSession } from './harness/run-host.js';

const call = (name: string, input: Record<string, unknown>): Reply => ({
  toolCalls: [{ name, input }],
});

const BOOT = '# agent-state boot';

// The tool results the model was sent in a turn, in order.
function toolResults(s: HostSession, turn: number): string[] {
  return chatMessages(s.stub.turns()[turn]!)
    .filter((m) => m.role === 'tool')
    .map((m) => allText(m.content));
}

// OpenCode's own log of the last run (where the plugin writes what agent-state said on stderr).
function opencodeLog(s: HostSession): string {
  const dir = join(s.repo.home, '.local', 'share', 'opencode', 'log');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('OpenCode', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(opencode);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start, in the system prompt of every agent turn', async () => {
    const run = await s.run('Start the task', [
      call('bash', { command: 'ls', description: 'list' }),
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = s.stub.turns();
    for (const turn of [first!, second!]) {
      expect(chatSystem(turn)).toContain(BOOT);
      expect(chatSystem(turn)).toContain('`src/storage/**` — frozen interface');
    }
    // The title generator and nothing else of OpenCode's own gets it.
    const title = s.stub.requests.filter(isTitleRequest);
    expect(title.length).toBeGreaterThan(0);
    for (const request of title) expect(allText(request.body)).not.toContain(BOOT);
    expect(s.repo.events().filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
  });

  it('logs a failing command as ok: false, and the status signal reaches the model', async () => {
    const fail = (n: number) =>
      call('bash', { command: `echo failing ${n}; exit 3`, description: 'fail' });
    const replies = [fail(1), fail(2), fail(3), fail(4), fail(5), { text: 'ok' }];
    const run = await s.run('Run the tests', replies);
    expect(run.code, run.stderr).toBe(0);
    // Every call is recorded, the last one too (its hook may still run when OpenCode exits).
    const finished = () =>
      s.repo
        .events()
        .filter((e) => e.type === 'tool.finished')
        .slice(-5);
    await expect
      .poll(finished, { timeout: 3000 })
      .toMatchObject(Array.from({ length: 5 }, () => ({ name: 'bash', ok: false })));
    // The post-tool hook runs in the background: what the third failure raises comes with a later
    // tool result (the 4th, or the 5th when the 3rd one's hook is still at work: the stub answers
    // at once), never with the third.
    const signal = /bash failed \d times in a row: change approach/;
    const results = [3, 4, 5].map((turn) => toolResults(s, turn).slice(-1)[0]!);
    expect(results[0]).toContain('failing 3');
    expect(results[0]).not.toMatch(signal);
    expect(results.slice(1).join('\n')).toMatch(signal);
  });

  it('records the last tool call of a session even while the event log is busy', async () => {
    const before = s.repo.events().length;
    const hold = holdLogLock(s.repo);
    const run = await s.run('Check the tree', [
      call('bash', { command: hold, description: 'hold' }),
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    // OpenCode exits before the hook has the lock; the hook goes on and records the call.
    await expect
      .poll(() => s.repo.events().slice(before), { timeout: 3000 })
      .toContainEqual(expect.objectContaining({ type: 'tool.finished', name: 'bash', ok: true }));
  });

  it('refuses a Forbidden write through apply_patch (offered to gpt-* models) and the shell', async () => {
    const attempts: [string, Reply][] = [
      [
        'apply_patch update',
        call('apply_patch', {
          patchText: `*** Begin Patch\n*** Update File: ${FORBIDDEN_FILE}\n@@\n-export const db = "frozen";\n+export const db = "thawed";\n*** End Patch`,
        }),
      ],
      [
        'apply_patch add',
        call('apply_patch', {
          patchText: '*** Begin Patch\n*** Add File: src/storage/new.ts\n+x\n*** End Patch',
        }),
      ],
      ['bash redirect', call('bash', { command: `echo x > ${FORBIDDEN_FILE}`, description: 'w' })],
      [
        'bash workdir',
        call('bash', { command: 'echo x > db.ts', workdir: 'src/storage', description: 'w' }),
      ],
      ['bash cd', call('bash', { command: 'cd src/storage && rm db.ts', description: 'w' })],
    ];
    const run = await s.run('Change the storage layer', [
      ...attempts.map(([, reply]) => reply),
      { text: 'I will not touch it.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const tools = chatTools(s.stub.turns()[0]!);
    expect(tools).toEqual(expect.arrayContaining(['apply_patch', 'bash']));
    expect(tools).not.toContain('edit');
    attempts.forEach(([what], i) => {
      const [result] = toolResults(s, i + 1).slice(-1);
      expect(result, what).toContain('agent-state refused this tool call: src/storage/');
    });
    expect(s.repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
    expect(() => s.repo.read('src/storage/new.ts')).toThrow();
  });

  it('after a real compaction, the next agent turn carries the boot again, not the summarizer', async () => {
    const run = await s.run('Keep going', [
      {
        ...call('bash', { command: 'echo big', description: 'x' }),
        usage: { input: OPENCODE_CONTEXT - 1000 },
      },
      { text: 'Continuing after the compaction.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const summarizer = s.stub.requests.filter(
      (r) => r.kind === 'aux' && !isTitleRequest(r) && r.path.endsWith('/chat/completions'),
    );
    expect(summarizer).toHaveLength(1);
    expect(allText(summarizer[0]!.body)).not.toContain(BOOT);
    const after = s.stub.turns()[1]!;
    expect(allText(chatMessages(after))).toContain('Continue if you have next steps');
    expect(chatSystem(after)).toContain(BOOT);
    const events = s.repo.events();
    expect(events.filter((e) => e.type === 'boot').slice(-1)).toMatchObject([
      { source: 'compact' },
    ]);
    expect(events.filter((e) => e.type === 'compaction')).toHaveLength(1);
  });

  it('a continued session (opencode run --continue) gets a resume boot', async () => {
    expect((await s.run('Start', [{ text: 'ok' }])).code).toBe(0);
    const run = await s.run('Continue the task', [{ text: 'ok' }], { extraArgs: ['--continue'] });
    expect(run.code, run.stderr).toBe(0);
    expect(chatSystem(s.stub.turns()[0]!)).toContain(BOOT);
    expect(
      s.repo
        .events()
        .filter((e) => e.type === 'boot')
        .slice(-1),
    ).toMatchObject([{ source: 'resume' }]);
  });

  it("a subagent's session (the task tool) gets its parent's boot prompt, not a boot of its own", async () => {
    const boots = () => s.repo.events().filter((e) => e.type === 'boot').length;
    const before = boots();
    const run = await s.run('Delegate the search', [
      call('task', {
        description: 'Find the app file',
        prompt: 'Find where greet() should go.',
        subagent_type: 'general',
      }),
      { text: 'It goes in src/app.ts.' },
      { text: 'Done.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [parent, child] = s.stub.turns();
    expect(allText(chatMessages(child!))).toContain('Find where greet() should go.');
    expect(chatSystem(child!)).toContain(BOOT);
    expect(chatSystem(parent!)).toContain(BOOT);
    expect(boots() - before).toBe(1);
  });

  it("writes agent-state's complaints into OpenCode's log, and the session goes on", async () => {
    const config = s.repo.read('.agent/config.yaml');
    s.repo.write('.agent/config.yaml', `${config}\nintegrations: [broken\n`);
    try {
      // OpenCode 1.18.33 writes its log in batches, one a second, and `opencode run` can exit
      // before the last one lands: the model's last answer takes longer than a batch, as a real
      // model's does, so what the tool call logged is in the file when the run ends.
      const run = await s.run('Look around', [
        call('bash', { command: 'ls', description: 'l' }),
        { text: 'ok', delayMs: 2500 },
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(opencodeLog(s)).toMatch(/level=WARN .*agent-state hook opencode: .*config\.yaml/);
    } finally {
      s.repo.write('.agent/config.yaml', config);
    }
  });
});

describe('OpenCode with a model offered edit and write', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(opencodeDriver({ model: OPENCODE_OTHER_MODEL }));
  });
  afterAll(() => s?.close());

  it('refuses a Forbidden write through edit and write, and tells the model why', async () => {
    const path = join(s.repo.dir, FORBIDDEN_FILE);
    const attempts: [string, Reply][] = [
      ['write', call('write', { filePath: path, content: 'x\n' })],
      ['edit', call('edit', { filePath: path, oldString: 'frozen', newString: 'thawed' })],
    ];
    const run = await s.run('Change the storage layer', [
      ...attempts.map(([, reply]) => reply),
      { text: 'I will not touch it.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(chatTools(s.stub.turns()[0]!)).toEqual(expect.arrayContaining(['edit', 'write']));
    attempts.forEach(([what], i) => {
      const [result] = toolResults(s, i + 1).slice(-1);
      expect(result, what).toContain(
        `agent-state refused this tool call: ${FORBIDDEN_FILE} is Forbidden`,
      );
    });
    expect(s.repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
  });

  it('logs an edit that failed (OpenCode throws, so no tool.execute.after) as ok: false', async () => {
    const run = await s.run('Edit the app', [
      call('edit', {
        filePath: join(s.repo.dir, 'src/app.ts'),
        oldString: 'no such text',
        newString: 'x',
      }),
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(s, 1).slice(-1)[0]).toMatch(/oldString|not found|Could not find/i);
    // Recorded in the background: the hook may still run when OpenCode exits.
    await expect
      .poll(() => s.repo.events().filter((e) => e.type === 'tool.finished'), { timeout: 3000 })
      .toContainEqual(expect.objectContaining({ name: 'edit', ok: false }));
  });
});
