// Gemini CLI's compression, the pinned version: PreCompress fires before every model call, before
// the CLI checks its threshold (google-gemini/gemini-cli#18083), so a session without a
// compression must count none; a real one (driven through ACP, where several prompts share one
// process, as a compression needs) counts exactly one and the prompt after it carries the boot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiContents } from './harness/gemini-api.js';
import { gemini, geminiAcp } from './harness/hosts/gemini.js';
import { allText, type Reply, type StubRequest } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

const BOOT = '# agent-state boot';

// What the user turn of a request says (the last content: the prompt and its hook context).
const promptOf = (request: StubRequest) => allText(geminiContents(request).slice(-1));

describe('Gemini CLI compression', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(gemini);
  });
  afterAll(() => s?.close());

  it('four model turns without a compression record no compaction and boot once', async () => {
    const shell = (n: number): Reply => ({
      toolCalls: [
        { name: 'run_shell_command', input: { command: `echo ${n}`, description: 'step' } },
      ],
    });
    const run = await s.run('Do the steps', [shell(1), shell(2), shell(3), { text: 'Done.' }]);
    expect(run.code, run.stderr).toBe(0);
    expect(s.stub.turns()).toHaveLength(4);
    const events = s.repo.events();
    expect(events.filter((e) => e.type === 'compaction')).toEqual([]);
    expect(events.filter((e) => e.type === 'boot')).toHaveLength(1);
    expect(s.repo.cli(['status', '--json'])).not.toMatch(/"compactions":\s*[1-9]/);
  });

  it('four prompts in one process without a compression: no compaction, no boot prompt on any', async () => {
    const acp = await geminiAcp(s, [
      { text: 'one' },
      { text: 'two' },
      { text: 'three' },
      { text: 'four' },
    ]);
    try {
      for (const text of ['first', 'second', 'third', 'fourth'])
        expect((await acp.prompt(text)).stopReason).toBe('end_turn');
    } finally {
      await acp.close();
    }
    const turns = s.stub.turns();
    expect(turns).toHaveLength(4);
    for (const turn of turns.slice(1)) expect(promptOf(turn)).not.toContain(BOOT);
    expect(s.repo.events().filter((e) => e.type === 'compaction')).toEqual([]);
  });

  it('a real compression counts once, and the prompt after it carries the boot', async () => {
    const before = s.repo.events().length;
    const acp = await geminiAcp(s, [
      // The reply reports more than half the window: Gemini compresses at the next prompt.
      { text: 'A long answer.', usage: { input: 600_000 } },
      { text: 'After the compression.' },
      { text: 'Later.' },
    ]);
    try {
      for (const text of ['first', 'second', 'third'])
        expect((await acp.prompt(text)).stopReason).toBe('end_turn');
    } finally {
      await acp.close();
    }
    const summaries = s.stub.requests.filter(
      (r) => r.kind === 'aux' && r.path.includes(':generateContent'),
    );
    expect(summaries.length).toBeGreaterThan(0); // the summary (and Gemini's check of it)
    const turns = s.stub.turns();
    expect(turns).toHaveLength(3);
    expect(allText(geminiContents(turns[1]!))).toContain('<state_snapshot>');
    expect(promptOf(turns[2]!)).toContain(BOOT);
    expect(promptOf(turns[2]!)).toContain('`src/storage/**` — frozen interface');
    const events = s.repo.events().slice(before);
    expect(events.filter((e) => e.type === 'compaction')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([{ source: 'compact' }]);
  });
});
