// The status of a task directory, read from disk: the cached snapshot brought up to date, the task
// taken from the state files, the signals computed for now, projected onto sections.
import type { ForbiddenMatcher } from '../state/forbidden.js';
import { cachedConfig } from '../state/config-cache.js';
import { initializedRoot, locateRoot } from '../state/find-root.js';
import { statePaths } from '../state/paths.js';
import { loadState, type LoadedState } from '../task/load-state.js';
import type { BaseOptions, Warning } from '../types.js';
import type { StatusView } from '../events/sections.js';
import type { StatusSignal } from '../events/signals.js';
import { buildStatusView } from './status-view.js';
import { signalInputs } from './signal-inputs.js';
import { readRecovery } from '../recovery/record-store.js';
import type { RecoveryRecord } from '../recovery/record.js';
import { loadStatus } from '../events/status-cache.js';
import { withTaskState } from '../events/task-state.js';
import type { StatusSnapshot } from '../events/types.js';

export interface ReadStatusResult {
  /** The state files as loaded (reuse them instead of reading again). */
  state: LoadedState;
  /** The snapshot with the task taken from the state files. */
  snapshot: StatusSnapshot;
  view: StatusView;
  signals: StatusSignal[];
  /** This worktree's boot and compaction counters (.agent/log/recovery.json). */
  recovery: RecoveryRecord;
  /** The enclosing git work tree's root, or null outside git. */
  gitRoot: string | null;
  /** Non-fatal findings (skipped log lines, a rebuilt cache, goals.md warnings). */
  warnings: Warning[];
}

/** Reads the current status of the task that `cwd` belongs to (updates the snapshot cache). */
export async function readStatus(
  options: BaseOptions & { state?: LoadedState; gitRoot?: string | null } = {},
): Promise<ReadStatusResult> {
  const now = (options.now ?? (() => new Date()))();
  let { state, gitRoot } = options;
  if (!state) {
    // The root found once (each find walks .agent/ for symlinks), and config.yaml's values from
    // their cache: a status that parses no YAML but progress.yaml's.
    const info = locateRoot(options.cwd);
    const paths = statePaths(initializedRoot(info));
    if (gitRoot === undefined) gitRoot = info.gitRoot;
    state = loadState({ ...options, paths, config: await cachedConfig(paths) });
  }
  // null is an answer (outside git), not a miss.
  if (gitRoot === undefined) gitRoot = locateRoot(state.paths.root).gitRoot;
  const loaded = loadStatus(state.paths);
  const snapshot = withTaskState(loaded.snapshot, {
    anchor: state.goals.anchor,
    progress: state.progress,
  });
  // The glob matcher is loaded (and the globs compiled) only when a modified file could match:
  // picomatch is not worth its start-up cost on every `status`.
  let forbidden: ForbiddenMatcher | undefined;
  if (snapshot.files.modified.length > 0 && state.goals.forbidden.length > 0) {
    const { caseInsensitive, compileForbidden } = await import('../state/forbidden.js');
    forbidden = compileForbidden(state.goals.forbidden, {
      nocase: caseInsensitive(state.paths.root),
    });
  }
  const recovery = readRecovery(state.paths, state.progress.stamp, state.agent);
  const facts = await signalInputs({
    repo: { paths: state.paths, gitRoot },
    snapshot,
    forbidden,
    fingerprint: state.progress.fingerprint ?? null,
    record: recovery,
    threshold: state.config.boot.stall_threshold,
    progress: state.progress,
    env: options.env,
  });
  const { view, signals } = buildStatusView(snapshot, {
    now,
    config: state.config,
    forbidden,
    ...facts,
  });
  return { state, snapshot, view, signals, recovery, gitRoot, warnings: loaded.warnings };
}
