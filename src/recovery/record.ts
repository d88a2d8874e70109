// The recovery record of one worktree: the counters that change with every boot and compaction,
// what the last boot saw, the compaction in flight. It lives in `.agent/log/recovery.json`,
// git-ignored, so a boot writes no committed file and two branches never conflict over counters.
// 0.1.0 kept the counters in progress.yaml's stamp; they are read from there until the first write
// moves them (schemas/recovery.schema.json, docs/protocol.md).
import type { Stamp } from '../types.js';
import { NO_COMPACTION, type CompactionState } from './compaction.js';
import type { LastBoot } from './rules.js';

/** The content of `.agent/log/recovery.json`. */
export interface RecoveryRecord {
  version: 1;
  /** Boot prompts handed out in this worktree. */
  boots: number;
  last_boot: string | null;
  /** The level of the last boot. */
  recovery_level: 1 | 2 | 3 | null;
  /** Boots in a row with no progress between them (the restart-loop counter). */
  stalled_boots: number;
  /** Compactions a host confirmed. */
  compactions: number;
  last_compaction: string | null;
  /** What the last boot saw (its progress digest), to compare the next one with. */
  last: LastBoot | null;
  compaction: CompactionState;
  /** Reminders a boot has shown (by key); the next write of progress.yaml removes them there. */
  reminders_shown: string[];
}

/** The stamp keys agent-state 0.1.0 wrote into progress.yaml, now kept here. */
export const LEGACY_STAMP_KEYS = [
  'boots',
  'last_boot',
  'recovery_level',
  'stalled_boots',
  'compactions',
  'last_compaction',
] as const;

/** A record with nothing counted yet, or seeded from a 0.1.0 stamp (its schema-valid counters). */
export function newRecord(legacy?: Stamp | null): RecoveryRecord {
  return parseRecord({ ...legacy, version: 1 })!;
}

/** Whether a stamp still holds counters that belong in the recovery record. */
export function hasLegacyCounters(stamp: Stamp | undefined): boolean {
  return stamp !== undefined && LEGACY_STAMP_KEYS.some((key) => key in stamp);
}

/** Removes the 0.1.0 counters from a stamp (they are in the recovery record). */
export function dropLegacyCounters(stamp: Stamp): void {
  for (const key of LEGACY_STAMP_KEYS) delete stamp[key];
}

const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
const time = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A record from parsed JSON, keeping what is well-formed (damage costs counts, never a boot). */
export function parseRecord(value: unknown): RecoveryRecord | null {
  const v = obj(value);
  if (v === null || v.version !== 1) return null;
  const level = v.recovery_level;
  const last = obj(v.last);
  const compaction = obj(v.compaction);
  return {
    version: 1,
    boots: count(v.boots),
    last_boot: time(v.last_boot),
    recovery_level: level === 1 || level === 2 || level === 3 ? level : null,
    stalled_boots: count(v.stalled_boots),
    compactions: count(v.compactions),
    last_compaction: time(v.last_compaction),
    last:
      last && time(last.at)
        ? {
            at: last.at as string,
            session: typeof last.session === 'string' ? last.session : null,
            stalled: count(last.stalled),
            progress: (obj(last.progress) ?? {}) as LastBoot['progress'],
          }
        : null,
    compaction: compaction
      ? {
          note: (obj(compaction.note) as CompactionState['note']) ?? null,
          owed: (obj(compaction.owed) as CompactionState['owed']) ?? null,
          last: (obj(compaction.last) as CompactionState['last']) ?? null,
        }
      : NO_COMPACTION,
    reminders_shown: Array.isArray(v.reminders_shown)
      ? v.reminders_shown.filter((k): k is string => typeof k === 'string')
      : [],
  };
}
