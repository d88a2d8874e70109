// Where the event log and its derived files live under `.agent/log/` (local, git-ignored).
import { join } from 'node:path';
import type { StatePaths } from '../state/paths.js';

/** Paths of the event log, its lock, the status cache and the publish cursors. */
export interface EventLogPaths {
  dir: string;
  /** The live log: one JSON event per line. */
  events: string;
  /** Held for the instant of an append (seq assignment) or a rotation. */
  lock: string;
  /** The cached status snapshot and the byte offset of the log it covers. */
  status: string;
}

/** The log paths of a task directory. */
export function eventLogPaths(paths: StatePaths): EventLogPaths {
  const dir = paths.logDir;
  return {
    dir,
    events: join(dir, 'events.jsonl'),
    lock: join(dir, 'events.lock'),
    status: join(dir, 'status.json'),
  };
}

/** A rotated generation: events.1.jsonl is the newest. */
export function rotatedLogPath(log: EventLogPaths, generation: number): string {
  return join(log.dir, `events.${generation}.jsonl`);
}
