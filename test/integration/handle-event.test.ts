// The host-neutral hook logic on a real state directory, with the real libraries: the boot
// prompt, the event log (.agent/log/events.jsonl), the status publisher, the compaction state
// (.agent/log/recovery.json) and Gemini CLI's chat recording as a real file. What is checked:
// which facts are recorded, when a compaction counts (only once a host confirms it), when the
// boot prompt owed after it is delivered, and how Stop blocks once.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHost } from '../../src/hosts/claude/claude-host.js';
import { codexHost } from '../../src/hosts/codex/codex-host.js';
import { geminiHost } from '../../src/hosts/gemini/gemini-host.js';
import { handleHookEvent } from '../../src/hosts/handle-event.js';
import type { HostAdapter } from '../../src/hosts/host-adapter.js';
import type { HostHookEvent } from '../../src/hosts/host-hook-event.js';
import { opencodeHost } from '../../src/hosts/opencode/opencode-host.js';
import { readEvents } from '../../src/events/read-log.js';
import { peekCompaction, readRecovery } from '../../src/recovery/record-store.js';
import { acquireLock } from '../../src/state/lock.js';
import { initState } from '../../src/state/init.js';
import { addPlanItem, setPlanStatus } from '../../src/state/plan.js';
import { findRepo, type Repo } from '../../src/state/find-root.js';
import { updateProgress } from '../../src/task/update-progress.js';
import { gitdir, writeFiles } from '../helpers/fixtures.js';

const HOSTS: Record<HostHookEvent['host'], HostAdapter> = {
  claude: claudeHost,
  codex: codexHost,
  gemini: geminiHost,
  opencode: opencodeHost,
};

// Every boot prompt opens with its header line; the status comes after it, in the host's format.
const BOOT = 'agent-state boot · level';

// What the log holds, without the fields every event gets.
function logged(repo: Repo, types?: string[]) {
  return readEvents(repo.paths, types ? { types } : {}).events.map(
    ({ seq: _seq, at: _at, actor: _actor, ...fact }) => fact,
  );
}

const boots = (repo: Repo) =>
  readEvents(repo.paths, { types: ['boot'] }).events.map((e) => e.source ?? null);
const compactions = (repo: Repo) => logged(repo, ['compaction']);

function setup(config = '') {
  const dir = gitdir();
  initState({ cwd: dir, goal: 'Test the hook logic' });
  writeFiles(dir, {
    '.agent/state/goals.md': '# T\n\nTest the hook logic.\n\n## Forbidden\n\n- `vendor/**`\n',
    ...(config ? { '.agent/config.yaml': `version: 1\n${config}` } : {}),
  });
  const repo = findRepo(dir);
  const call = (e: Partial<HostHookEvent>) => {
    const event: HostHookEvent = {
      host: 'codex',
      kind: 'other',
      hostEvent: 'X',
      cwd: dir,
      sessionId: 's',
      ...e,
    };
    return handleHookEvent(HOSTS[event.host], event, repo);
  };
  return { dir, repo, paths: repo.paths, call };
}

const counted = (repo: Repo) => readRecovery(repo.paths).compactions;
const isBoot = (context: string | undefined) => (context ?? '').includes(BOOT);

describe('handleHookEvent: compactions', () => {
  it('a PreCompact is only a note: nothing counted, no boot, and it expires at the next prompt', async () => {
    const { repo, paths, call } = setup();
    expect(await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'manual' })).toEqual(
      {},
    );
    expect(peekCompaction(paths).note).toMatchObject({ host: 'codex', trigger: 'manual' });
    expect(compactions(repo)).toEqual([]);
    expect(counted(repo)).toBe(0);
    // The prompt gets the status (this consumer's first: a baseline), not a boot prompt.
    const prompt = await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' });
    expect(prompt.context).toMatch(/^<agent-status/);
    expect(isBoot(prompt.context)).toBe(false);
    expect(peekCompaction(paths).note).toBeNull();
    expect(boots(repo)).toEqual([]);
    expect(counted(repo)).toBe(0);
  });

  it('PostCompact confirms it: counted once, the boot prompt on the next prompt, once', async () => {
    const { repo, paths, call } = setup();
    await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' });
    expect(await call({ kind: 'post-compact', hostEvent: 'PostCompact', trigger: 'auto' })).toEqual(
      {},
    );
    expect(compactions(repo)).toEqual([
      { type: 'compaction', trigger: 'auto', host: 'codex', confirmed_by: 'post-compact' },
    ]);
    expect(counted(repo)).toBe(1);
    expect(peekCompaction(paths).owed).toMatchObject({ host: 'codex', session: 's' });
    // The boot prompt, then the status baseline for this consumer.
    const first = await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' });
    expect(isBoot(first.context)).toBe(true);
    expect(first.context).toMatch(/\n\n<agent-status[^]*<\/agent-status>\s*$/);
    const second = await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' });
    expect(isBoot(second.context)).toBe(false);
    expect(boots(repo)).toEqual(['compact']);
  });

  it('Gemini CLI gets the status in Markdown (it escapes < and > in additionalContext), the others XML', async () => {
    const { call } = setup();
    for (const host of ['gemini', 'claude', 'codex', 'opencode'] as const) {
      const out = await call({ host, kind: 'session-start', hostEvent: 'SessionStart' });
      expect(isBoot(out.context)).toBe(true);
      if (host === 'gemini') expect(out.context).not.toMatch(/<agent-status/);
      else expect(out.context).toMatch(/<agent-status/);
    }
  });

  it('PostCompact then SessionStart(compact) are one compaction, booted at SessionStart', async () => {
    const { repo, paths, call } = setup();
    const claude = (e: Partial<HostHookEvent>) => call({ host: 'claude', ...e });
    await claude({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'manual' });
    await claude({ kind: 'post-compact', hostEvent: 'PostCompact', trigger: 'manual' });
    const started = await claude({
      kind: 'session-start',
      hostEvent: 'SessionStart',
      source: 'compact',
    });
    expect(isBoot(started.context)).toBe(true);
    expect(counted(repo)).toBe(1);
    expect(compactions(repo)).toHaveLength(1);
    expect(peekCompaction(paths)).toMatchObject({ note: null, owed: null });
    // The other order counts once too.
    await claude({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto', sessionId: 't' });
    await claude({
      kind: 'session-start',
      hostEvent: 'SessionStart',
      source: 'compact',
      sessionId: 't',
    });
    await claude({
      kind: 'post-compact',
      hostEvent: 'PostCompact',
      trigger: 'auto',
      sessionId: 't',
    });
    expect(counted(repo)).toBe(2);
    expect(peekCompaction(paths).owed).toBeNull();
    expect(boots(repo)).toEqual(['compact', 'compact']);
  });

  it('a SessionStart(compact) counts without a note; a new session drops a stale note', async () => {
    const { repo, paths, call } = setup();
    const claude = (e: Partial<HostHookEvent>) => call({ host: 'claude', ...e });
    await claude({ kind: 'session-start', hostEvent: 'SessionStart', source: 'compact' });
    expect(counted(repo)).toBe(1);
    await claude({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' });
    await claude({ kind: 'session-start', hostEvent: 'SessionStart', source: 'resume' });
    expect(peekCompaction(paths).note).toBeNull();
    expect(counted(repo)).toBe(1);
    expect(boots(repo)).toEqual(['compact', 'resume']);
  });

  it("OpenCode: nothing goes into the summarizer's prompt; session.compacted counts it and brings the boot", async () => {
    const { repo, paths, call } = setup();
    const compacting = await call({
      host: 'opencode',
      kind: 'pre-compact',
      hostEvent: 'experimental.session.compacting',
    });
    expect(compacting).toEqual({});
    expect(boots(repo)).toEqual([]);
    expect(counted(repo)).toBe(0);
    const compacted = await call({
      host: 'opencode',
      kind: 'session-start',
      hostEvent: 'session.compacted',
      source: 'compact',
    });
    expect(isBoot(compacted.context)).toBe(true);
    expect(boots(repo)).toEqual(['compact']);
    expect(counted(repo)).toBe(1);
    expect(peekCompaction(paths)).toMatchObject({ note: null, owed: null });
  });

  it('Gemini CLI: PreCompress counts nothing until the chat recording shows a compression', async () => {
    const { dir, repo, call } = setup();
    const transcript = join(dir, 'chat.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ sessionId: 'g', projectHash: 'p' })}\n`);
    const gemini = (e: Partial<HostHookEvent>) =>
      call({ host: 'gemini', transcriptPath: transcript, sessionId: 'g', ...e });
    const turn = () => gemini({ kind: 'pre-compact', hostEvent: 'PreCompress', trigger: 'auto' });
    const afterTool = () =>
      gemini({
        kind: 'post-tool',
        hostEvent: 'AfterTool',
        tool: { name: 'read_file', input: {}, ok: true },
      });
    for (let i = 0; i < 4; i++) {
      await gemini({ kind: 'prompt', hostEvent: 'BeforeAgent' });
      await turn();
      await afterTool();
    }
    expect(counted(repo)).toBe(0);
    expect(boots(repo)).toEqual([]);
    // An old compression in the recording (made before the announcement) proves nothing.
    const record = (at: string) =>
      `${JSON.stringify({
        $set: {
          messages: [
            {
              id: 'x',
              timestamp: at,
              type: 'user',
              content: [{ text: '<state_snapshot>s</state_snapshot>' }],
            },
            {
              id: 'y',
              timestamp: at,
              type: 'gemini',
              content: [{ text: 'Got it. Thanks for the additional context!' }],
            },
          ],
        },
      })}\n`;
    appendFileSync(transcript, record('2026-01-01T00:00:00.000Z'));
    await afterTool();
    expect(counted(repo)).toBe(0);
    await turn();
    appendFileSync(transcript, record(new Date(Date.now() + 1000).toISOString()));
    // The next tool call sees it: counted, and the boot prompt goes out with AfterTool.
    const after = await afterTool();
    expect(isBoot(after.context)).toBe(true);
    expect(after.context).not.toMatch(/<agent-status/);
    expect(counted(repo)).toBe(1);
    expect(compactions(repo)).toMatchObject([{ host: 'gemini', confirmed_by: 'transcript' }]);
    expect(isBoot((await gemini({ kind: 'prompt', hostEvent: 'BeforeAgent' })).context)).toBe(
      false,
    );
    expect(counted(repo)).toBe(1);
  });

  it('Gemini CLI: a compression is noticed without PreCompress (registered for /compress only)', async () => {
    const { dir, repo, call } = setup();
    const transcript = join(dir, 'chat.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ sessionId: 'g', projectHash: 'p' })}\n`);
    const gemini = (e: Partial<HostHookEvent>) =>
      call({ host: 'gemini', transcriptPath: transcript, sessionId: 'g', ...e });
    const afterTool = () =>
      gemini({
        kind: 'post-tool',
        hostEvent: 'AfterTool',
        tool: { name: 'read_file', input: {}, ok: true },
      });
    const compressed = () =>
      appendFileSync(
        transcript,
        `${JSON.stringify({
          $set: {
            messages: [
              {
                timestamp: new Date(Date.now() + 1000).toISOString(),
                type: 'gemini',
                content: [{ text: 'Got it. Thanks for the additional context!' }],
              },
            ],
          },
        })}\n`,
      );
    // The model call after a prompt compresses: the next prompt brings the boot.
    await gemini({ kind: 'prompt', hostEvent: 'BeforeAgent' });
    compressed();
    expect(isBoot((await gemini({ kind: 'prompt', hostEvent: 'BeforeAgent' })).context)).toBe(true);
    // The model call after a tool call compresses: the next tool call brings it.
    await afterTool();
    compressed();
    expect(isBoot((await afterTool()).context)).toBe(true);
    expect(await afterTool()).toEqual({});
    expect(counted(repo)).toBe(2);
    expect(compactions(repo)).toMatchObject([
      { host: 'gemini', trigger: 'auto', confirmed_by: 'transcript' },
      { host: 'gemini', trigger: 'auto', confirmed_by: 'transcript' },
    ]);
  });

  it('a busy state costs the count, with a note, never the boot prompt', async () => {
    const { paths, call } = setup();
    const lock = await acquireLock(paths.lock, { timeoutMs: 1000 });
    try {
      const out = await call({
        host: 'claude',
        kind: 'session-start',
        hostEvent: 'SessionStart',
        source: 'compact',
      });
      expect(isBoot(out.context)).toBe(true);
      expect(out.note).toMatch(/the compaction state was not updated: /);
      expect(out.note).toMatch(/the boot was not counted: /);
    } finally {
      lock.release();
    }
  }, 30_000);
});

describe('handleHookEvent: tools and stop', () => {
  it('post-tool records tool.finished, and file.modified (with what the file holds) only on success', async () => {
    const { dir, repo, call } = setup();
    writeFileSync(join(dir, 'out.txt'), 'x\n');
    const tool = { name: 'Bash', input: { command: 'echo x > out.txt && rm old.txt' } };
    for (const ok of [true, false])
      expect(
        await call({ kind: 'post-tool', hostEvent: 'PostToolUse', tool: { ...tool, ok } }),
      ).toEqual({});
    expect(logged(repo)).toEqual([
      { type: 'tool.finished', name: 'Bash', ok: true },
      {
        type: 'file.modified',
        path: 'out.txt',
        tool: 'Bash',
        state: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
      { type: 'file.modified', path: 'old.txt', tool: 'Bash', state: 'deleted' },
      { type: 'tool.finished', name: 'Bash', ok: false },
    ]);
  });

  it('post-tool speaks only when a signal comes or goes, in the status it was last told', async () => {
    const { repo, call } = setup('signals:\n  consecutive_failures: 2\n');
    const told = await call({ host: 'claude', kind: 'session-start', hostEvent: 'SessionStart' });
    expect(told.context).toMatch(/<agent-status/);
    const failed = () =>
      call({
        host: 'claude',
        kind: 'post-tool',
        hostEvent: 'PostToolUseFailure',
        tool: { name: 'Bash', input: { command: 'npm test' }, ok: false },
      });
    expect(await failed()).toEqual({});
    const signal = await failed();
    expect(signal.context).toMatch(/Bash failed 2 times in a row/);
    // The same signal again (its count moved) is not news.
    expect(await failed()).toEqual({});
    expect(logged(repo, ['tool.finished'])).toHaveLength(3);
  });

  it('pre-tool records when a shell command starts, and in enforce mode denies with the rule', async () => {
    const { repo, call } = setup('integrations:\n  pre_tool_use: enforce\n');
    await call({
      kind: 'pre-tool',
      hostEvent: 'PreToolUse',
      tool: { name: 'Bash', input: { command: 'ls' } },
    });
    const out = await call({
      kind: 'pre-tool',
      hostEvent: 'PreToolUse',
      tool: { name: 'apply_patch', input: { command: '*** Update File: vendor/lib.js' } },
    });
    expect(out.deny).toContain('vendor/lib.js is Forbidden');
    expect(logged(repo)).toEqual([
      { type: 'tool.started', name: 'Bash' },
      { type: 'permission.denied', tool: 'apply_patch', permission: '`vendor/**`' },
    ]);
  });

  it('stop blocks once per progress, never while stop_hook_active, never when nothing progressed', async () => {
    const { dir, call } = setup('integrations:\n  stop_checkpoint: block\n');
    const stop = (active: boolean) =>
      call({ kind: 'stop', hostEvent: 'Stop', stopHookActive: active });
    expect(await stop(false)).toEqual({});
    await updateProgress(
      (p) => {
        const item = addPlanItem(p, { title: 'Write the hook' });
        setPlanStatus(p, item.id, 'running');
      },
      { cwd: dir },
    );
    expect(await stop(true)).toEqual({});
    expect((await stop(false)).block).toMatch(/agent-state checkpoint/);
    expect(await stop(false)).toEqual({});
  });
});
