// Reading and writing `.agent/log/recovery.json` (I/O). Writers hold the state lock (the same one
// as progress.yaml), so concurrent boots and hooks count each boot and compaction exactly once.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { StatePaths } from '../state/paths.js';
import type { Stamp } from '../types.js';
import { newRecord, parseRecord, type RecoveryRecord } from './record.js';

/** Where the recovery record of a worktree lives. */
export function recoveryPath(paths: StatePaths): string {
  return join(paths.logDir, 'recovery.json');
}

/** The stored record, or null when there is none (or it is not a record). */
export function readStoredRecovery(paths: StatePaths): RecoveryRecord | null {
  let text: string;
  try {
    text = readFileSync(recoveryPath(paths), 'utf8');
  } catch {
    return null;
  }
  try {
    return parseRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * The record of this worktree; before the first one is written, the counters a 0.1.0
 * progress.yaml stamp holds (`legacy`), so nothing counted before is lost.
 */
export function readRecovery(paths: StatePaths, legacy?: Stamp | null): RecoveryRecord {
  return readStoredRecovery(paths) ?? newRecord(legacy);
}

/** Replaces the record (atomic); the caller holds the state lock. */
export function writeRecovery(paths: StatePaths, record: RecoveryRecord): void {
  mkdirSync(paths.logDir, { recursive: true });
  writeFileAtomic(recoveryPath(paths), `${JSON.stringify(record, null, 2)}\n`);
}

/** Applies `fn` to the record and writes it back; the caller holds the state lock. */
export function updateRecoveryLocked<T>(
  paths: StatePaths,
  fn: (record: RecoveryRecord) => T,
  legacy?: Stamp | null,
): { record: RecoveryRecord; result: T } {
  const record = readRecovery(paths, legacy);
  const result = fn(record);
  writeRecovery(paths, record);
  return { record, result };
}
