// The one reader of the JSONL log: forward in large chunks from a byte offset (the reducer,
// `events`), and backward from the end, newest first (the appender's last seq, the timeline: on a
// log of a million lines reading forward to its last page would cost seconds). A seq's offset is
// found by binary search on byte offsets. A last line without its newline is a write in progress
// or a torn write: it is never read. A line that does not parse is skipped (and reported, forward).
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { StatePaths } from '../state/paths.js';
import { eventLogPaths, rotatedLogPath, type EventLogPaths } from './log-paths.js';
import type { Warning } from '../types.js';
import type { AgentEvent } from './types.js';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1 << 20;
const WINDOW_BYTES = 256 * 1024;
/** Below this distance the binary search for a seq gives way to a forward scan. */
const SEARCH_STOP_BYTES = 64 * 1024;
/** Rotated generations looked at (the config allows at most this many). */
const MAX_GENERATIONS = 100;

/** A line that was skipped because it is not an event. */
export interface CorruptLine {
  /** The seq of the last good event before it (0 at the start). */
  afterSeq: number;
  /** Byte offset of the line in the file. */
  offset: number;
}

/** The warning about a skipped line of `file` (as the user names it). */
export const corruptWarning = (file: string, line: CorruptLine): Warning => ({
  file,
  message: `skipped a line that is not an event (byte ${line.offset}, after seq ${line.afterSeq})`,
});

export interface ReadLogResult {
  /** The offset just past the last complete line read: where the next read starts. */
  offset: number;
  /** The seq of the last event read (`seqBefore` if none). */
  lastSeq: number;
  corrupt: CorruptLine[];
}

/** Which events a backward scan visits. */
export interface BackwardFilter {
  /** Only events with a seq below this. */
  before?: number;
  /** Only these types (`tool.*` matches every type starting with `tool.`). */
  types?: readonly string[];
}

/** Parses one log line; null when it is not an event object with a numeric seq. */
export function parseEventLine(line: string): AgentEvent | null {
  if (line === '' || line.charCodeAt(0) !== 0x7b /* { */) return null;
  try {
    const value = JSON.parse(line) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const event = value as AgentEvent;
    return typeof event.seq === 'number' && typeof event.type === 'string' ? event : null;
  } catch {
    return null;
  }
}

/** `--type` matching: exact types, and `tool.*` for every type starting with `tool.`. */
export function typeMatcher(types: readonly string[] | undefined): (type: string) => boolean {
  if (!types || types.length === 0) return () => true;
  const exact = new Set(types.filter((t) => !t.endsWith('*')));
  const prefixes = types.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  return (type) => exact.has(type) || prefixes.some((p) => type.startsWith(p));
}

// One read buffer per scan, grown when a read needs more: a scan of a whole log allocates (and
// leaves to the collector) one buffer, not one per step.
class Reader {
  private buffer = Buffer.allocUnsafe(0);
  constructor(readonly fd: number) {}

  /** Bytes [start, end) of the file (fewer past its end); valid until the next call. */
  read(start: number, end: number): Buffer {
    if (end - start > this.buffer.length) this.buffer = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < end - start) {
      const n = readSync(this.fd, this.buffer, done, end - start - done, start + done);
      if (n === 0) break;
      done += n;
    }
    return this.buffer.subarray(0, done);
  }
}

// Runs `read` on the open file; a missing file gives `missing`.
function withFile<T>(file: string, missing: T, read: (reader: Reader, size: number) => T): T {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing;
    throw error;
  }
  try {
    return read(new Reader(fd), fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads every complete line of `file` from `offset`, handing the parsed events to `onBatch` a chunk
 * at a time (memory stays flat on a huge log). A missing file reads as empty. `seqBefore` is the
 * seq of the event before `offset`, for the messages about corrupt lines.
 */
export function readLogFrom(
  file: string,
  offset: number,
  onBatch: (events: AgentEvent[]) => void,
  seqBefore = 0,
): ReadLogResult {
  const result: ReadLogResult = { offset, lastSeq: seqBefore, corrupt: [] };
  return withFile(file, result, (reader, size) => {
    let chunk = CHUNK_BYTES;
    while (result.offset < size) {
      const buffer = reader.read(result.offset, result.offset + chunk);
      const end = buffer.lastIndexOf(NEWLINE) + 1;
      if (end === 0) {
        if (buffer.length < chunk) break; // the torn last line
        chunk *= 2; // a line longer than the chunk
        continue;
      }
      parseChunk(buffer.toString('utf8', 0, end - 1), result, onBatch);
      result.offset += end;
    }
    return result;
  });
}

function parseChunk(text: string, result: ReadLogResult, onBatch: (events: AgentEvent[]) => void) {
  const events: AgentEvent[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    const event = line.trim() === '' ? undefined : parseEventLine(line);
    if (event) {
      events.push(event);
      result.lastSeq = event.seq;
    } else if (event === null) {
      // Byte offsets equal string offsets only for ASCII; corrupt lines are rare, so only they pay.
      const offset = result.offset + Buffer.byteLength(text.slice(0, start));
      result.corrupt.push({ afterSeq: result.lastSeq, offset });
    }
    start += line.length + 1;
  }
  if (events.length > 0) onBatch(events);
}

// The first complete, parseable line in [from, end) whose seq is ≥ `seq`: its start and seq.
// With `cut`, `from` may be inside a line, which is skipped.
function firstLine(
  reader: Reader,
  from: number,
  end: number,
  seq: number,
  cut: boolean,
  window = WINDOW_BYTES,
): { start: number; seq: number } | null {
  for (let position = from; position < end;) {
    const buffer = reader.read(position, Math.min(end, position + window));
    let start = 0;
    if (cut) {
      start = buffer.indexOf(NEWLINE) + 1;
      if (start === 0) return null;
      cut = false;
    }
    for (let nl = buffer.indexOf(NEWLINE, start); nl >= 0; nl = buffer.indexOf(NEWLINE, start)) {
      const event = parseEventLine(buffer.toString('utf8', start, nl));
      if (event && event.seq >= seq) return { start: position + start, seq: event.seq };
      start = nl + 1;
    }
    if (start === 0) return null; // one line longer than the window: give up on precision
    position += start;
  }
  return null;
}

// The offset of the first line whose seq is ≥ `seq` (`size` when there is none).
function offsetIn(reader: Reader, size: number, seq: number): number {
  let lo = 0;
  let hi = size;
  while (hi - lo > SEARCH_STOP_BYTES) {
    const mid = Math.floor((lo + hi) / 2);
    const line = firstLine(reader, mid, hi, -Infinity, true, SEARCH_STOP_BYTES);
    if (line && line.seq < seq) lo = line.start;
    else hi = mid;
  }
  return firstLine(reader, lo, size, seq, false)?.start ?? size;
}

/** The offset of the first line of `file` whose seq is ≥ `seq` (its end, or 0 when missing). */
export function offsetOfSeq(file: string, seq: number): number {
  return withFile(file, 0, (reader, size) => offsetIn(reader, size, seq));
}

// The largest offset ≤ `end` at which a line starts (0, or just past a newline): a torn last
// line (a write in progress) is never read.
function lineBoundary(reader: Reader, end: number): number {
  let window = Math.min(end, 4096);
  while (end > 0) {
    const start = end - window;
    const at = reader.read(start, end).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    if (start === 0) return 0;
    window = Math.min(end, window * 4);
  }
  return 0;
}

// The lines of buffer[first, length) that hold one of `needles` (every line when none), last
// first. Every line of that range ends with a newline. Hits are found with forward searches
// (Buffer#indexOf is several times faster than #lastIndexOf), then handed out last first.
function* linesOf(buffer: Buffer, first: number, needles: Buffer[] | null): Generator<string> {
  if (needles) {
    const starts = new Set<number>();
    for (const needle of needles)
      for (let at = buffer.indexOf(needle, first); at >= 0;) {
        starts.add(at > 0 ? buffer.lastIndexOf(NEWLINE, at - 1) + 1 : 0);
        at = buffer.indexOf(needle, buffer.indexOf(NEWLINE, at) + 1);
      }
    for (const start of [...starts].sort((a, b) => b - a))
      yield buffer.toString('utf8', start, buffer.indexOf(NEWLINE, start));
    return;
  }
  let pos = buffer.length - 1; // the newline of the last line
  while (pos >= first) {
    const before = pos > 0 ? buffer.lastIndexOf(NEWLINE, pos - 1) : -1;
    const start = Math.max(first, before + 1);
    if (pos > start) yield buffer.toString('utf8', start, pos);
    pos = start - 1; // the newline that ends the previous line
  }
}

// Visits the events of [0, hi) backward (`hi` is a line start) in windows of `window` bytes;
// returns false when `visit` stopped the scan.
function scanLines(
  reader: Reader,
  hi: number,
  filter: BackwardFilter,
  needles: Buffer[] | null,
  visit: (event: AgentEvent) => boolean,
  window = WINDOW_BYTES,
): boolean {
  const matches = typeMatcher(filter.types);
  let size = window;
  while (hi > 0) {
    const lo = Math.max(0, hi - size);
    const buffer = reader.read(lo, hi);
    // The window ends with a newline (`hi` is a line start); its first line may be cut.
    const first = lo === 0 ? 0 : buffer.indexOf(NEWLINE) + 1;
    if (first === buffer.length && lo > 0) {
      size *= 2; // no line starts in the window: the last line is longer than it
      continue;
    }
    size = window;
    for (const line of linesOf(buffer, first, needles)) {
      const event = parseEventLine(line);
      if (!event || !matches(event.type)) continue;
      if (filter.before !== undefined && event.seq >= filter.before) continue;
      if (!visit(event)) return false;
    }
    hi = lo + first;
  }
  return true;
}

/** The end of the log as the appender needs it. */
export interface LogTail {
  /** The seq of the last complete, parseable event (0 if none). */
  lastSeq: number;
  /** False when the file ends inside a line (a torn write): the next line must start fresh. */
  endsWithNewline: boolean;
}

/** Reads backward from the end of an open log until it finds the last event. */
export function readTail(fd: number, size: number): LogTail {
  const reader = new Reader(fd);
  const end = lineBoundary(reader, size);
  let lastSeq = 0;
  const found = (event: AgentEvent) => ((lastSeq = event.seq), false);
  scanLines(reader, end, {}, null, found, 64 * 1024);
  return { lastSeq, endsWithNewline: end === size };
}

// Letters from the rarest in JSON event lines to the most common. Buffer#indexOf looks for the
// first byte of a needle first: a needle that starts with a quote (the commonest byte of JSON)
// is 20 times slower than one that starts with a rare letter.
const RARITY = 'qzxjkvbpygwfmucldhrsnioate';

const rarity = (c: string) => (RARITY.includes(c) ? RARITY.indexOf(c) : RARITY.length);

// What a matching line must contain: the end of the type's JSON string from its rarest letter
// (`kpoint.created"` for checkpoint.created; `ool.` for `tool.*`). Lines that only look alike
// are parsed and dropped.
function needleOf(type: string): Buffer {
  const family = type.endsWith('*');
  const name = family ? type.slice(0, -1) : type;
  const text = family ? name : `${name}"`;
  let best = 0;
  for (let i = 0; i < Math.max(1, name.length - 3); i++)
    if (rarity(name[i]!) < rarity(name[best]!)) best = i;
  return Buffer.from(text.slice(best), 'utf8');
}

/**
 * Visits the events of the log newest first — the live log, then the rotated ones — until
 * `visit` returns false. A type filter searches the raw bytes for the type's JSON string and
 * parses only the lines that hold it, so a rare type is found at the speed of a memory scan.
 * Returns true when every event was visited.
 */
export function scanBackward(
  log: EventLogPaths,
  filter: BackwardFilter,
  visit: (event: AgentEvent) => boolean,
): boolean {
  const needles = filter.types?.length ? filter.types.map(needleOf) : null;
  const scanFile = (file: string) =>
    withFile(file, true, (reader, size) => {
      let hi = lineBoundary(reader, size);
      if (filter.before !== undefined) hi = Math.min(hi, offsetIn(reader, hi, filter.before));
      return scanLines(reader, hi, filter, needles, visit);
    });
  if (!scanFile(log.events)) return false;
  for (let g = 1; g <= MAX_GENERATIONS; g++) {
    const file = rotatedLogPath(log, g);
    if (!existsSync(file)) break;
    if (!scanFile(file)) return false;
  }
  return true;
}

/** One page of the timeline, newest first. */
export interface TimelinePage {
  events: AgentEvent[];
  /** Whether older events match too (the next page starts below the last seq here). */
  more: boolean;
}

/** The newest `limit` events matching `filter`, newest first. */
export function readTimeline(
  log: EventLogPaths,
  filter: BackwardFilter & { limit: number },
): TimelinePage {
  const events: AgentEvent[] = [];
  let more = false;
  scanBackward(log, filter, (event) => {
    if (events.length === filter.limit) {
      more = true;
      return false;
    }
    events.push(event);
    return true;
  });
  return { events, more };
}

// `agent-state events`: a --since near the end of a huge log skips ahead by binary search.
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
    for (let g = MAX_GENERATIONS; g >= 1; g--)
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
