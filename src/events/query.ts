// Reading events back (`agent-state events`): filtered by seq, type and count, from the live log
// and, on request, the rotated ones. A --since near the end of a huge log skips ahead by binary
// search on byte offsets (read-log.ts) instead of parsing every line.
import { existsSync } from 'node:fs';
import type { StatePaths } from '../state/paths.js';
import type { Warning } from '../types.js';
import { eventLogPaths, rotatedLogPath } from './log-paths.js';
import { corruptWarning, offsetOfSeq, readLogFrom, typeMatcher } from './read-log.js';
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
    const start = since > 0 ? offsetOfSeq(file, since + 1) : 0;
    const read = readLogFrom(file, start, (batch) => {
      for (const event of batch) if (event.seq > since && matches(event.type)) events.push(event);
      if (limit !== undefined && events.length > limit * 2) events = events.slice(-limit);
    });
    const name = file.slice(paths.root.length + 1);
    warnings.push(...read.corrupt.map((line) => corruptWarning(name, line)));
  }
  if (limit !== undefined) events = events.slice(-limit);
  return { events, warnings };
}
