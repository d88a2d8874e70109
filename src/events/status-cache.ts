// `.agent/log/status.json` holds the snapshot and the byte offset of the log it covers, so updating
// it reads only the lines appended since. A cache that is missing, corrupt, of another version or of
// another file (the log rotated) is rebuilt from the log; neither that nor a torn line is fatal.
import { readFileSync, statSync } from 'node:fs';
import { orElse } from '../state/or-else.js';
import type { StatePaths } from '../state/paths.js';
import type { Warning } from '../types.js';
import { eventLogPaths, type EventLogPaths } from './log-paths.js';
import { corruptWarning, readLogFrom, type CorruptLine } from './read-log.js';
import { isSnapshot, reduceStatus } from './reduce.js';
import { replaceFile } from '../state/atomic-write.js';
import type { AgentEvent, StatusSnapshot } from './types.js';

/** The content of `.agent/log/status.json`. */
export interface StatusCache {
  version: 1;
  /** The log file the snapshot was folded from (its inode) and the offset just past the last line folded. */
  log: { ino: number; offset: number };
  snapshot: StatusSnapshot;
}

/** A snapshot that covers every complete line of the log. */
export interface FoldedStatus extends Omit<StatusCache, 'version'> {
  /** Whether the whole log was read (no usable cache). */
  rebuilt: boolean;
  /** How many events were folded in by this call. */
  folded: number;
  corrupt: CorruptLine[];
  /** Why the cache could not be used, when it existed but was unusable. */
  cacheProblem: string | null;
}

function readCache(file: string): { cache: StatusCache | null; problem: string | null } {
  const text = orElse(() => readFileSync(file, 'utf8'), null);
  if (text === null) return { cache: null, problem: null };
  try {
    const cache = JSON.parse(text) as StatusCache;
    if (
      cache?.version === 1 &&
      typeof cache.log?.ino === 'number' &&
      typeof cache.log.offset === 'number' &&
      isSnapshot(cache.snapshot)
    )
      return { cache, problem: null };
    return { cache: null, problem: 'it is not a status cache of this version' };
  } catch {
    return { cache: null, problem: 'it is not valid JSON' };
  }
}

/**
 * The log's stat, or null when it does not exist. Only ENOENT is "none": `throwIfNoEntry: false`
 * also hides ENOTDIR on Node ≥ 22 (a file where .agent/log should be), which must fail the call.
 */
export function logStat(file: string): { ino: number; size: number } | null {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Brings the cached snapshot up to date with the log (reads only what the cache does not cover). */
export function foldStatus(log: EventLogPaths): FoldedStatus {
  const { cache, problem } = readCache(log.status);
  // No log (never written, or deleted): nothing has happened as far as the status knows.
  const file = logStat(log.events);
  const usable =
    file && cache?.log.ino === file.ino && cache.log.offset <= file.size ? cache : null;
  let snapshot = usable?.snapshot ?? null;
  let folded = 0;
  const fold = (events: AgentEvent[]) => {
    folded += events.length;
    snapshot = reduceStatus(snapshot, events);
  };
  const read = file && readLogFrom(log.events, usable?.log.offset ?? 0, fold, usable?.snapshot.seq);
  return {
    snapshot: snapshot ?? reduceStatus(null, []),
    log: { ino: file?.ino ?? 0, offset: read ? read.offset : 0 },
    // A cache of "no log" is current.
    rebuilt: file ? usable === null : cache !== null && cache.log.ino !== 0,
    folded,
    corrupt: read ? read.corrupt : [],
    cacheProblem: problem,
  };
}

/** Writes the cache; one that cannot be written is only slower next time. */
export function saveStatusCache(log: EventLogPaths, status: Omit<StatusCache, 'version'>): void {
  const cache: StatusCache = { version: 1, log: status.log, snapshot: status.snapshot };
  try {
    replaceFile(log.status, `${JSON.stringify(cache)}\n`);
  } catch {
    /* only slower */
  }
}

export interface LoadedStatus extends Pick<FoldedStatus, 'snapshot' | 'rebuilt' | 'folded'> {
  /** Non-fatal findings: skipped corrupt lines, a rebuilt cache. */
  warnings: Warning[];
}

/** The current status snapshot of a task directory (cache + new events); updates the cache. */
export function loadStatus(paths: StatePaths): LoadedStatus {
  const log = eventLogPaths(paths);
  const status = foldStatus(log);
  if (status.rebuilt || status.folded > 0) saveStatusCache(log, status);
  const warnings: Warning[] = [];
  if (status.cacheProblem)
    warnings.push({
      file: '.agent/log/status.json',
      message: `the status cache was unusable (${status.cacheProblem}); rebuilt it from the log`,
    });
  for (const line of status.corrupt) warnings.push(corruptWarning('.agent/log/events.jsonl', line));
  return { snapshot: status.snapshot, warnings, rebuilt: status.rebuilt, folded: status.folded };
}
