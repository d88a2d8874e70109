// Reading and writing `.agent/log/recovery.json` (I/O). Writers hold the state lock (the same one
// as progress.yaml), so concurrent boots and hooks count each boot and compaction exactly once.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { StatePaths } from '../state/paths.js';
import type { Stamp } from '../types.js';
import { newRecord, parseRecord, type RecoveryRecord } from './record.js';

/**
 * Where the recovery record of a worktree's agent lives: the default agent's in recovery.json, a
 * named agent's (docs/multi-agent.md) in recovery.NAME.json, since each agent boots on its own.
 */
export function recoveryPath(paths: StatePaths, agent: string | null = null): string {
  return join(paths.logDir, agent === null ? 'recovery.json' : `recovery.${agent}.json`);
}

/** The stored record, or null when there is none (or it is not a record). */
export function readStoredRecovery(
  paths: StatePaths,
  agent: string | null = null,
): RecoveryRecord | null {
  let text: string;
  try {
    text = readFileSync(recoveryPath(paths, agent), 'utf8');
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
  writeFileAtomic(recoveryPath(paths, agent), `${JSON.stringify(record, null, 2)}\n`);
}

/** Applies `fn` to the record and writes it back; the caller holds the state lock. */
export function updateRecoveryLocked<T>(
  paths: StatePaths,
  fn: (record: RecoveryRecord) => T,
  legacy?: Stamp | null,
  agent: string | null = null,
): { record: RecoveryRecord; result: T } {
  const record = readRecovery(paths, legacy, agent);
  const result = fn(record);
  writeRecovery(paths, record, agent);
  return { record, result };
}
