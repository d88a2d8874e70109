// What the control signals need to know beyond the event log (I/O, cheap and only when it
// matters): which Forbidden files the agent touched are still changed (a reverted one raises no
// signal, as `verify` reports none), and whether a restart loop holds now (the last boot found
// one and nothing moved since: src/recovery/rules.ts). So a signal stops when its cause stops.
import { digestEdits, loopHolds } from '../recovery/rules.js';
import { editsMark, progressNow } from '../recovery/progress-now.js';
import type { RecoveryRecord } from '../recovery/record.js';
import type { ForbiddenMatcher } from '../state/forbidden.js';
import type { Repo } from '../state/find-root.js';
import type { Fingerprint, Progress } from '../types.js';
import type { SignalOptions } from '../events/signals.js';
import type { StatusSnapshot } from '../events/types.js';

export interface SignalInputsOptions {
  repo: Repo;
  snapshot: StatusSnapshot;
  forbidden?: ForbiddenMatcher;
  /** The last checkpoint's fingerprint (what `verify` compares with). */
  fingerprint: Fingerprint | null;
  record: RecoveryRecord | null;
  threshold: number;
  /**
   * progress.yaml as it is now; without it (the hot path after a tool call) a loop is assumed to
   * hold unless a recorded edit moved since the boot — the caller then checks with the full status.
   */
  progress: Progress | null;
  env?: NodeJS.ProcessEnv;
}

/** The `stillChanged` and `restartLoop` options of computeSignals. */
export async function signalInputs(
  input: SignalInputsOptions,
): Promise<Pick<SignalOptions, 'stillChanged' | 'restartLoop'>> {
  const { repo, snapshot, forbidden, record, threshold } = input;
  let stillChanged: Set<string> | undefined;
  const touched = forbidden ? snapshot.files.modified.filter((p) => forbidden(p) !== null) : [];
  if (touched.length > 0) {
    const { stillChanged: check } = await import('../fingerprint/still-changed.js');
    stillChanged = check(repo, touched, input.fingerprint, input.env);
  }
  const last = record?.last ?? null;
  let restartLoop: number | null = null;
  if (last !== null && last.stalled >= threshold) {
    if (input.progress !== null) {
      const now = progressNow(repo, input.progress, snapshot, input.env);
      if (loopHolds(last, now, threshold)) restartLoop = last.stalled;
    } else if (last.progress.edits === digestEdits(editsMark(snapshot))) {
      // Only the edits part can be told without progress.yaml: the full status decides the rest.
      restartLoop = last.stalled;
    }
  }
  return { stillChanged, restartLoop };
}
