// The compaction state of the recovery record, for the host hooks (I/O): a quick look without
// the lock, and changes under the state lock that count a confirmed compaction exactly once.
import { hookAgent } from '../state/agent-name.js';
import type { StatePaths } from '../state/paths.js';
import type { Stamp } from '../types.js';
import { NO_COMPACTION, type CompactionState } from './compaction.js';
import { readStoredRecovery, updateRecoveryLocked } from './record-store.js';

/** What a change of the compaction state decided. */
export interface CompactionChange<T> {
  state: CompactionState;
  /** Count a compaction, at this time. */
  counted?: { at: string } | null;
  result: T;
}

/** The compaction state as stored now (no lock: for deciding whether there is anything to do). */
export function peekCompaction(
  paths: StatePaths,
  env: NodeJS.ProcessEnv = process.env,
): CompactionState {
  return readStoredRecovery(paths, hookAgent(env))?.compaction ?? NO_COMPACTION;
}

// A hook waits this long for the lock at most: the host's session must not hang on it.
const HOOK_LOCK_TIMEOUT_MS = 2000;

/** Applies `change` under the state lock; returns its result. */
export async function updateCompaction<T>(
  paths: StatePaths,
  change: (state: CompactionState) => CompactionChange<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const { withStateLock, readProgress, readAgentProgress } = await import('../state/store.js');
  const agent = hookAgent(env);
  return withStateLock(
    paths,
    () => {
      // Before the first record, a 0.1.0 stamp's counters seed it.
      let legacy: Stamp | undefined;
      if (readStoredRecovery(paths, agent) === null)
        legacy = (agent === null ? readProgress(paths) : readAgentProgress(paths, agent)).value
          ?.stamp;
      return updateRecoveryLocked(
        paths,
        (record) => {
          const outcome = change(record.compaction);
          record.compaction = outcome.state;
          if (outcome.counted) {
            record.compactions += 1;
            record.last_compaction = outcome.counted.at;
          }
          return outcome.result;
        },
        legacy,
        agent,
      ).result;
    },
    { timeoutMs: HOOK_LOCK_TIMEOUT_MS },
  );
}
