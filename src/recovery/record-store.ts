// Reading and writing `.agent/log/recovery.json` (I/O), and the compaction state in it for the
// host hooks. Writers hold the state lock (the same one as progress.yaml), so concurrent boots and
// hooks count each boot and compaction exactly once.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookAgent } from '../state/agent-name.js';
import { replaceFile } from '../state/atomic-write.js';
import { orElse } from '../state/or-else.js';
import type { StatePaths } from '../state/paths.js';
import type { Stamp } from '../types.js';
import { NO_COMPACTION, type CompactionState } from './compaction.js';
import { newRecord, parseRecord, type RecoveryRecord } from './record.js';

/** The record's file: recovery.json, or recovery.NAME.json for a named agent (each boots alone). */
export function recoveryPath(paths: StatePaths, agent: string | null = null): string {
  return join(paths.logDir, agent === null ? 'recovery.json' : `recovery.${agent}.json`);
}

/** The stored record, or null when there is none (or it is not a record). */
export function readStoredRecovery(
  paths: StatePaths,
  agent: string | null = null,
): RecoveryRecord | null {
  return orElse(
    () => parseRecord(JSON.parse(readFileSync(recoveryPath(paths, agent), 'utf8'))),
    null,
  );
}

/** The record of this worktree; before the first write, seeded from a 0.1.0 stamp (`legacy`). */
export function readRecovery(
  paths: StatePaths,
  legacy?: Stamp | null,
  agent: string | null = null,
): RecoveryRecord {
  return readStoredRecovery(paths, agent) ?? newRecord(legacy);
}

/** Replaces the record (atomic); the caller holds the state lock. */
export function writeRecovery(
  paths: StatePaths,
  record: RecoveryRecord,
  agent: string | null = null,
): void {
  mkdirSync(paths.logDir, { recursive: true });
  // Atomic but not fsynced (a local record, like the caches): a power loss can at worst leave no
  // record, read back as a fresh one (the counts start over, a shown reminder shows once more).
  replaceFile(recoveryPath(paths, agent), `${JSON.stringify(record, null, 2)}\n`);
}

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

/** Applies `change` to the compaction state under the state lock; returns its result. */
export async function updateCompaction<T>(
  paths: StatePaths,
  change: (state: CompactionState) => CompactionChange<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const { withStateLock, readProgress, readAgentProgress } = await import('../state/store.js');
  const agent = hookAgent(env);
  const update = () => {
    // Before the first record, a 0.1.0 stamp's counters seed it.
    const record =
      readStoredRecovery(paths, agent) ??
      newRecord(
        (agent === null ? readProgress(paths) : readAgentProgress(paths, agent)).value?.stamp,
      );
    const outcome = change(record.compaction);
    record.compaction = outcome.state;
    if (outcome.counted) {
      record.compactions += 1;
      record.last_compaction = outcome.counted.at;
    }
    writeRecovery(paths, record, agent);
    return outcome.result;
  };
  return withStateLock(paths, update, { timeoutMs: HOOK_LOCK_TIMEOUT_MS });
}
