// The host-neutral hook logic on a real state directory, with the state libraries (boot, event
// log, status) replaced by recording fakes: which facts are recorded, when the boot prompt owed
// after a compaction is delivered, and how Stop blocks once.
import { describe, expect, it } from 'vitest';
import {
  handleHookEvent,
  type HookFact,
  type HookServices,
} from '../../src/integrations/host-hook/handle-event.js';
import type { HookEvent } from '../../src/integrations/host-hook/hook-event.js';
import { readHookState } from '../../src/integrations/host-hook/hook-state.js';
import { initState } from '../../src/state/init.js';
import { findRoot } from '../../src/state/find-root.js';
import { loadState, readConfig } from '../../src/state/store.js';
import { valueOrThrow } from '../../src/state/parsed-file.js';
import { gitdir, writeFiles } from '../helpers/fixtures.js';

function fakes(changed = true, stampFails = false) {
  const recorded: HookFact[] = [];
  const boots: string[] = [];
  const statuses: string[] = [];
  const formats: string[] = [];
  let compactionsStamped = 0;
  const services: HookServices = {
    loadState: async (paths) => loadState({ cwd: paths.root }),
    readConfig: async (paths) => valueOrThrow(readConfig(paths)),
    boot: async (_paths, { source, minLevel }) => {
      boots.push(`${source}:${minLevel}`);
      return `BOOT(${source})`;
    },
    record: async (_paths, facts) => {
      recorded.push(...facts);
    },
    status: async (_paths, consumer, { mode, format }) => {
      statuses.push(`${consumer}:${mode}`);
      formats.push(format);
      return mode === 'baseline' ? 'STATUS' : '';
    },
    progressSinceCheckpoint: async ({ progress }) => ({ changed, key: String(progress.revision) }),
    stampCompaction: async () => {
      if (stampFails) throw new Error('the state is busy');
      compactionsStamped++;
    },
  };
  return { services, recorded, boots, statuses, formats, stamped: () => compactionsStamped };
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

describe('handleHookEvent', () => {
  it('a host without SessionStart after compaction gets the boot prompt on the next prompt, once', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    expect(
      await handleHookEvent(
        event(dir, { kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' }),
        paths,
        f.services,
      ),
    ).toEqual({});
    expect(f.recorded).toEqual([{ type: 'compaction', trigger: 'auto', host: 'codex' }]);
    expect(f.stamped()).toBe(1);
    expect(readHookState(paths).compaction_pending).toMatchObject({
      host: 'codex',
      trigger: 'auto',
    });
    const first = await handleHookEvent(
      event(dir, { kind: 'prompt', hostEvent: 'UserPromptSubmit' }),
      paths,
      f.services,
    );
    expect(first).toEqual({ context: 'BOOT(compact)\n\nSTATUS' });
    expect(f.boots).toEqual(['compact:2']);
    expect(readHookState(paths).compaction_pending).toBeNull();
    expect(
      await handleHookEvent(
        event(dir, { kind: 'prompt', hostEvent: 'UserPromptSubmit' }),
        paths,
        f.services,
      ),
    ).toEqual({});
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

  it('SessionStart delivers the boot prompt (resume asks for level 1 at least) and clears what was owed', async () => {
    const { dir, paths } = repo();
    const f = fakes();
    await handleHookEvent(
      event(dir, {
        host: 'claude',
        kind: 'pre-compact',
        hostEvent: 'PreCompact',
        trigger: 'manual',
      }),
      paths,
      f.services,
    );
    const start = await handleHookEvent(
      event(dir, {
        host: 'claude',
        kind: 'session-start',
        hostEvent: 'SessionStart',
        source: 'compact',
      }),
      paths,
      f.services,
    );
    expect(start).toEqual({ context: 'BOOT(compact)\n\nSTATUS' });
    expect(readHookState(paths).compaction_pending).toBeNull();
    await handleHookEvent(
      event(dir, {
        host: 'claude',
        kind: 'session-start',
        hostEvent: 'SessionStart',
        source: 'resume',
      }),
      paths,
      f.services,
    );
    expect(f.boots).toEqual(['compact:2', 'resume:1']);
  });

  it("OpenCode: nothing goes into the summarizer's prompt; session.compacted brings the boot", async () => {
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
    expect(f.boots).toEqual(['compact:2']);
    expect(readHookState(paths).compaction_pending).toBeNull();
  });

  it('post-tool records tool.finished, and file.modified only for a call that succeeded', async () => {
    const { dir, paths } = repo();
    const f = fakes();
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
      { type: 'file.modified', path: 'out.txt' },
      { type: 'file.modified', path: 'old.txt' },
      { type: 'tool.finished', name: 'Bash', ok: false },
    ]);
    expect(f.statuses).toEqual(['codex:signals', 'codex:signals']);
  });

  it('pre-tool in enforce mode denies and records permission.denied with the rule', async () => {
    const { dir, paths } = repo('integrations:\n  pre_tool_use: enforce\n');
    const f = fakes();
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

  it('a compaction that cannot be counted still owes its boot prompt, with a note', async () => {
    const { dir, paths } = repo();
    const f = fakes(true, true);
    const outcome = await handleHookEvent(
      event(dir, { kind: 'pre-compact', hostEvent: 'PreCompact', trigger: 'auto' }),
      paths,
      f.services,
    );
    expect(outcome).toEqual({
      note: 'the compaction was not counted in progress.yaml: the state is busy',
    });
    expect(f.recorded).toEqual([{ type: 'compaction', trigger: 'auto', host: 'codex' }]);
    expect(readHookState(paths).compaction_pending).toMatchObject({ host: 'codex' });
    const opencode = await handleHookEvent(
      event(dir, { host: 'opencode', kind: 'pre-compact', hostEvent: 'session.compacting' }),
      paths,
      f.services,
    );
    expect(opencode).toEqual({
      note: 'the compaction was not counted in progress.yaml: the state is busy',
    });
  });
});
