// The host-neutral hook logic on a real state directory. The boot prompt, the event log and the
// status are recording fakes; the compaction state is the real recovery record
// (.agent/log/recovery.json) and Gemini CLI's chat recording a real file. What is checked: which
// facts are recorded, when a compaction counts (only once a host confirms it), when the boot
// prompt owed after it is delivered, and how Stop blocks once.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  handleHookEvent,
  type HookFact,
  type HookServices,
} from '../../src/integrations/host-hook/handle-event.js';
import type { HookEvent } from '../../src/integrations/host-hook/hook-event.js';
import { hookServices } from '../../src/integrations/host-hook/hook-services.js';
import { peekCompaction } from '../../src/recovery/compaction-store.js';
import { readRecovery } from '../../src/recovery/record-store.js';
import { acquireLock } from '../../src/state/lock.js';
import { initState } from '../../src/state/init.js';
import { findRoot } from '../../src/state/find-root.js';
import { loadState, readConfig } from '../../src/state/store.js';
import { valueOrThrow } from '../../src/state/parsed-file.js';
import { gitdir, writeFiles } from '../helpers/fixtures.js';

function fakes(changed = true) {
  const recorded: HookFact[] = [];
  const boots: string[] = [];
  const statuses: string[] = [];
  const formats: string[] = [];
  const real = hookServices();
  const services: HookServices = {
    loadState: async (paths) => loadState({ cwd: paths.root }),
    readConfig: async (paths) => valueOrThrow(readConfig(paths)),
    boot: async (_paths, { source }) => {
      boots.push(source);
      return `BOOT(${source})`;
    },
    record: async (_paths, facts) => {
      recorded.push(...facts);
    },
    status: async (_paths, consumer, { mode, format }) => {
      statuses.push(`${consumer}:${mode}`);
      formats.push(format);
      return mode === 'baseline' ? 'STATUS' : mode === 'delta' ? 'DELTA' : '';
    },
    progressSinceCheckpoint: async ({ progress }) => ({ changed, key: String(progress.revision) }),
    peekCompaction: real.peekCompaction,
    compaction: real.compaction,
    transcriptShowsCompaction: real.transcriptShowsCompaction,
    transcriptOffset: real.transcriptOffset,
  };
  const compactions = () => recorded.filter((f) => f.type === 'compaction');
  return { services, recorded, boots, statuses, formats, compactions };
}

function repo(config = '') {
  const dir = gitdir();
  initState({ cwd: dir, goal: 'Test the hook logic' });
  writeFiles(dir, {
    '.agent/state/goals.md': '# T\n\nTest the hook logic.\n\n## Forbidden\n\n- `vendor/**`\n',
    ...(config ? { '.agent/config.yaml': `version: 1\n${config}` } : {}),
  });
  return { dir, paths: findRoot(dir) };
}

const event = (dir: string, e: Partial<HookEvent>): HookEvent => ({
  host: 'codex',
  kind: 'other',
  hostEvent: 'X',
  cwd: dir,
  sessionId: 's',
  ...e,
});

const counted = (paths: ReturnType<typeof findRoot>) => readRecovery(paths).compactions;

describe('handleHookEvent: compactions', () => {
  it('a PreCompact is only a note: nothing counted, no boot, and it expires at the next prompt', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const call = (e: Partial<HookEvent>) => handleHookEvent(event(dir, e), paths, f.services);
    expect(await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'manual' })).toEqual(
      {},
    );
    expect(peekCompaction(paths).note).toMatchObject({ host: 'codex', trigger: 'manual' });
    expect(f.compactions()).toEqual([]);
    expect(counted(paths)).toBe(0);
    expect(await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' })).toEqual({
      context: 'DELTA',
    });
    expect(peekCompaction(paths).note).toBeNull();
    expect(f.boots).toEqual([]);
    expect(counted(paths)).toBe(0);
  });

  it('PostCompact confirms it: counted once, the boot prompt on the next prompt, once', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const call = (e: Partial<HookEvent>) => handleHookEvent(event(dir, e), paths, f.services);
    await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' });
    expect(await call({ kind: 'post-compact', hostEvent: 'PostCompact', trigger: 'auto' })).toEqual(
      {},
    );
    expect(f.compactions()).toEqual([
      {
        type: 'compaction',
        actor: 'system',
        trigger: 'auto',
        host: 'codex',
        confirmed_by: 'post-compact',
      },
    ]);
    expect(counted(paths)).toBe(1);
    expect(peekCompaction(paths).owed).toMatchObject({ host: 'codex', session: 's' });
    expect(await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' })).toEqual({
      context: 'BOOT(compact)\n\nSTATUS',
    });
    expect(await call({ kind: 'prompt', hostEvent: 'UserPromptSubmit' })).toEqual({
      context: 'DELTA',
    });
    expect(f.boots).toEqual(['compact']);
    expect(f.statuses).toEqual(['codex:baseline', 'codex:delta']);
  });

  it('Gemini CLI gets the status in Markdown (it escapes < and > in additionalContext), the others XML', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    for (const host of ['gemini', 'claude', 'codex', 'opencode'] as const)
      await handleHookEvent(
        event(dir, { host, kind: 'session-start', hostEvent: 'SessionStart' }),
        paths,
        f.services,
      );
    expect(f.formats).toEqual(['markdown', 'xml', 'xml', 'xml']);
  });

  it('PostCompact then SessionStart(compact) are one compaction, booted at SessionStart', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const call = (e: Partial<HookEvent>) =>
      handleHookEvent(event(dir, { host: 'claude', ...e }), paths, f.services);
    await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'manual' });
    await call({ kind: 'post-compact', hostEvent: 'PostCompact', trigger: 'manual' });
    expect(
      await call({ kind: 'session-start', hostEvent: 'SessionStart', source: 'compact' }),
    ).toEqual({ context: 'BOOT(compact)\n\nSTATUS' });
    expect(counted(paths)).toBe(1);
    expect(f.compactions()).toHaveLength(1);
    expect(peekCompaction(paths)).toMatchObject({ note: null, owed: null });
    // The other order counts once too.
    await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto', sessionId: 't' });
    await call({
      kind: 'session-start',
      hostEvent: 'SessionStart',
      source: 'compact',
      sessionId: 't',
    });
    await call({ kind: 'post-compact', hostEvent: 'PostCompact', trigger: 'auto', sessionId: 't' });
    expect(counted(paths)).toBe(2);
    expect(peekCompaction(paths).owed).toBeNull();
    expect(f.boots).toEqual(['compact', 'compact']);
  });

  it('a SessionStart(compact) counts without a note; a new session drops a stale note', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const call = (e: Partial<HookEvent>) =>
      handleHookEvent(event(dir, { host: 'claude', ...e }), paths, f.services);
    await call({ kind: 'session-start', hostEvent: 'SessionStart', source: 'compact' });
    expect(counted(paths)).toBe(1);
    await call({ kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' });
    await call({ kind: 'session-start', hostEvent: 'SessionStart', source: 'resume' });
    expect(peekCompaction(paths).note).toBeNull();
    expect(counted(paths)).toBe(1);
    expect(f.boots).toEqual(['compact', 'resume']);
  });

  it("OpenCode: nothing goes into the summarizer's prompt; session.compacted counts it and brings the boot", async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const compacting = await handleHookEvent(
      event(dir, {
        host: 'opencode',
        kind: 'pre-compact',
        hostEvent: 'experimental.session.compacting',
      }),
      paths,
      f.services,
    );
    expect(compacting).toEqual({});
    expect(f.boots).toEqual([]);
    expect(counted(paths)).toBe(0);
    const compacted = await handleHookEvent(
      event(dir, {
        host: 'opencode',
        kind: 'session-start',
        hostEvent: 'session.compacted',
        source: 'compact',
      }),
      paths,
      f.services,
    );
    expect(compacted).toEqual({ context: 'BOOT(compact)\n\nSTATUS' });
    expect(f.boots).toEqual(['compact']);
    expect(counted(paths)).toBe(1);
    expect(peekCompaction(paths)).toMatchObject({ note: null, owed: null });
  });

  it('Gemini CLI: PreCompress counts nothing until the chat recording shows a compression', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const transcript = join(dir, 'chat.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ sessionId: 'g', projectHash: 'p' })}\n`);
    const call = (e: Partial<HookEvent>) =>
      handleHookEvent(
        event(dir, { host: 'gemini', transcriptPath: transcript, sessionId: 'g', ...e }),
        paths,
        f.services,
      );
    const turn = () => call({ kind: 'pre-compact', hostEvent: 'PreCompress', trigger: 'auto' });
    const afterTool = () =>
      call({
        kind: 'post-tool',
        hostEvent: 'AfterTool',
        tool: { name: 'read_file', input: {}, ok: true },
      });
    for (let i = 0; i < 4; i++) {
      await call({ kind: 'prompt', hostEvent: 'BeforeAgent' });
      await turn();
      await afterTool();
    }
    expect(counted(paths)).toBe(0);
    expect(f.boots).toEqual([]);
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
    expect(counted(paths)).toBe(0);
    await turn();
    appendFileSync(transcript, record(new Date(Date.now() + 1000).toISOString()));
    // The next tool call sees it: counted, and the boot prompt goes out with AfterTool.
    expect(await afterTool()).toEqual({ context: 'BOOT(compact)\n\nSTATUS' });
    expect(counted(paths)).toBe(1);
    expect(f.compactions()).toMatchObject([{ host: 'gemini', confirmed_by: 'transcript' }]);
    expect(await call({ kind: 'prompt', hostEvent: 'BeforeAgent' })).toEqual({ context: 'DELTA' });
    expect(counted(paths)).toBe(1);
  });

  it('a busy state costs the count, with a note, never the boot prompt', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    const lock = await acquireLock(paths.lock, { timeoutMs: 1000 });
    try {
      const out = await handleHookEvent(
        event(dir, {
          host: 'claude',
          kind: 'session-start',
          hostEvent: 'SessionStart',
          source: 'compact',
        }),
        paths,
        { ...f.services, compaction: (p, change) => hookServices().compaction(p, change) },
      );
      expect(out.context).toBe('BOOT(compact)\n\nSTATUS');
      expect(out.note).toMatch(/the compaction state was not updated: /);
    } finally {
      lock.release();
    }
  }, 30_000);
});

describe('handleHookEvent: tools and stop', () => {
  it('post-tool records tool.finished, and file.modified (with what the file holds) only on success', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    writeFileSync(join(dir, 'out.txt'), 'x\n');
    const tool = { name: 'Bash', input: { command: 'echo x > out.txt && rm old.txt' } };
    await handleHookEvent(
      event(dir, { kind: 'post-tool', hostEvent: 'PostToolUse', tool: { ...tool, ok: true } }),
      paths,
      f.services,
    );
    await handleHookEvent(
      event(dir, { kind: 'post-tool', hostEvent: 'PostToolUse', tool: { ...tool, ok: false } }),
      paths,
      f.services,
    );
    expect(f.recorded).toEqual([
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
    expect(f.statuses).toEqual(['codex:signals', 'codex:signals']);
  });

  it('pre-tool records when a shell command starts, and in enforce mode denies with the rule', async () => {
    const { dir, paths } = repo('integrations:\n  pre_tool_use: enforce\n');
    const f = fakes();
    await handleHookEvent(
      event(dir, {
        kind: 'pre-tool',
        hostEvent: 'PreToolUse',
        tool: { name: 'Bash', input: { command: 'ls' } },
      }),
      paths,
      f.services,
    );
    const out = await handleHookEvent(
      event(dir, {
        kind: 'pre-tool',
        hostEvent: 'PreToolUse',
        tool: { name: 'apply_patch', input: { command: '*** Update File: vendor/lib.js' } },
      }),
      paths,
      f.services,
    );
    expect(out.deny).toContain('vendor/lib.js is Forbidden');
    expect(f.recorded).toEqual([
      { type: 'tool.started', name: 'Bash' },
      { type: 'permission.denied', tool: 'apply_patch', permission: '`vendor/**`' },
    ]);
  });

  it('stop blocks once per progress, never while stop_hook_active, never when progress is saved', async () => {
    const { dir, paths } = repo('integrations:\n  stop_checkpoint: block\n');
    const f = fakes(true);
    const stop = (active: boolean) =>
      handleHookEvent(
        event(dir, { kind: 'stop', hostEvent: 'Stop', stopHookActive: active }),
        paths,
        f.services,
      );
    expect(await stop(true)).toEqual({});
    expect((await stop(false)).block).toMatch(/agent-state checkpoint/);
    expect(await stop(false)).toEqual({});
    const saved = fakes(false);
    expect(
      await handleHookEvent(event(dir, { kind: 'stop', hostEvent: 'Stop' }), paths, saved.services),
    ).toEqual({});
  });
});
