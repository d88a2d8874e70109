// Reading events back (`agent-state events`): filtered by seq, type and count, from the live log
// and, on request, the rotated ones. A --since near the end of a huge log skips ahead by binary
// search on byte offsets instead of parsing every line.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { StatePaths } from '../state/paths.js';
import type { Warning } from '../types.js';
import { eventLogPaths, rotatedLogPath } from './log-paths.js';
import { parseEventLine, readLogFrom } from './read-log.js';
import type { AgentEvent } from './types.js';

export interface EventQuery {
  /** Only events with a seq above this. */
  since?: number;
  /** Only these types; `tool.*` matches every type starting with `tool.`. */
  types?: string[];
  /** Only the newest N (after the other filters). */
  limit?: number;
  /** Read the rotated logs too (oldest first). */
  all?: boolean;
}

const SKIP_SEARCH_BELOW = 1 << 20;

/** The first complete, parseable line starting at or after `position`: its start and seq. */
export function lineAt(fd: number, position: number): { start: number; seq: number } | null {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const view = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, position));
  let start = 0;
  if (position > 0) {
    const newline = view.indexOf(0x0a);
    if (newline < 0) return null;
    start = newline + 1;
  }
  for (;;) {
    const end = view.indexOf(0x0a, start);
    if (end < 0) return null;
    const event = parseEventLine(view.toString('utf8', start, end));
    if (event) return { start: position + start, seq: event.seq };
    start = end + 1;
  }
}

/** A byte offset at which reading finds every event above `since` (seqs increase along the file). */
export function offsetBeforeSeq(file: string, since: number): number {
  const fd = openSync(file, 'r');
  try {
    let lo = 0;
    let hi = fstatSync(fd).size;
    while (hi - lo > SKIP_SEARCH_BELOW) {
      const mid = Math.floor((lo + hi) / 2);
      const line = lineAt(fd, mid);
      if (line && line.seq <= since && line.start > lo) lo = line.start;
      else hi = mid;
    }
    return lo;
  } finally {
    closeSync(fd);
  }
}

/** `--type` matching: exact types, and `tool.*` for every type starting with `tool.`. */
export function typeMatcher(types: readonly string[] | undefined): (type: string) => boolean {
  if (!types || types.length === 0) return () => true;
  const exact = new Set(types.filter((t) => !t.endsWith('*')));
  const prefixes = types.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  return (type) => exact.has(type) || prefixes.some((p) => type.startsWith(p));
}

/** The events matching `query`, in seq order, with warnings for skipped lines. */
export function readEvents(
  paths: StatePaths,
  query: EventQuery = {},
): { events: AgentEvent[]; warnings: Warning[] } {
  const log = eventLogPaths(paths);
  const since = query.since ?? 0;
  const matches = typeMatcher(query.types);
  const limit = query.limit;
  const files: string[] = [];
  if (query.all)
    for (let g = 100; g >= 1; g--)
      if (existsSync(rotatedLogPath(log, g))) files.push(rotatedLogPath(log, g));
  files.push(log.events);
  let events: AgentEvent[] = [];
  const warnings: Warning[] = [];
  for (const file of files) {
    const start = since > 0 && existsSync(file) ? offsetBeforeSeq(file, since) : 0;
    const read = readLogFrom(file, start, (batch) => {
      for (const event of batch) if (event.seq > since && matches(event.type)) events.push(event);
      if (limit !== undefined && events.length > limit * 2) events = events.slice(-limit);
    });
    const name = file.slice(paths.root.length + 1);
    for (const line of read.corrupt)
      warnings.push({
        file: name,
        message: `skipped a line that is not an event (byte ${line.offset}, after seq ${line.afterSeq})`,
      });
  }
  if (limit !== undefined) events = events.slice(-limit);
  return { events, warnings };
}
