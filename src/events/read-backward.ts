// Reading the event log from its end, newest first: what the page shows first is the last few
// events, and on a log of a million lines reading forward to them would cost seconds. A type
// filter searches the raw bytes for the type's JSON string and parses only the lines that hold
// it, so a rare type is found at the speed of a memory scan. Older pages start at a seq found by
// binary search on byte offsets. The rotated logs (events.1.jsonl, ...) continue the live one.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { EventLogPaths } from './log-paths.js';
import { rotatedLogPath } from './log-paths.js';
import { lineAt, parseEventLine, typeMatcher } from './read-log.js';
import type { AgentEvent } from './types.js';

const WINDOW_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
/** Below this distance the binary search for a seq gives way to a forward scan. */
const SEARCH_STOP_BYTES = 64 * 1024;
/** Rotated generations looked at (the config allows at most this many). */
const MAX_GENERATIONS = 100;

/** Which events a backward scan visits. */
export interface BackwardFilter {
  /** Only events with a seq below this. */
  before?: number;
  /** Only these types (`tool.*` matches every type starting with `tool.`). */
  types?: readonly string[];
}

// One read buffer per scan, grown when a window needs more: a scan of a whole log allocates
// (and leaves to the collector) one window, not one per step.
class Reader {
  private buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  constructor(readonly fd: number) {}

  /** Bytes [start, end) of the file; valid until the next call. */
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

// The offset of the first line whose seq is ≥ `seq` (the file's end when there is none).
function offsetIn(reader: Reader, size: number, seq: number): number {
  let lo = 0;
  let hi = size;
  while (hi - lo > SEARCH_STOP_BYTES) {
    const mid = Math.floor((lo + hi) / 2);
    const line = lineAt(reader.fd, mid);
    if (line && line.seq < seq) lo = line.start;
    else hi = mid;
  }
  // Forward from `lo` to the first line at or past `seq`.
  let position = lo;
  for (;;) {
    const end = Math.min(size, position + WINDOW_BYTES);
    if (position >= end) return size;
    const buffer = reader.read(position, end);
    let start = 0;
    for (;;) {
      const nl = buffer.indexOf(NEWLINE, start);
      if (nl < 0) break;
      const event = parseEventLine(buffer.toString('utf8', start, nl));
      if (event && event.seq >= seq) return position + start;
      start = nl + 1;
    }
    if (start === 0) return size; // one line longer than the window: give up on precision
    position += start;
  }
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

/** The offset of the first line of `file` whose seq is ≥ `seq` (its end when there is none). */
export function offsetOfSeq(file: string, seq: number): number {
  const fd = openSync(file, 'r');
  try {
    return offsetIn(new Reader(fd), fstatSync(fd).size, seq);
  } finally {
    closeSync(fd);
  }
}

// Visits the lines of one file backward from `end`; returns false when `visit` stopped the scan.
function scanFile(
  file: string,
  filter: BackwardFilter,
  needles: Buffer[] | null,
  visit: (event: AgentEvent) => boolean,
): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const reader = new Reader(fd);
    let hi = lineBoundary(reader, size);
    if (filter.before !== undefined) hi = Math.min(hi, offsetIn(reader, hi, filter.before));
    const matches = typeMatcher(filter.types);
    let window = WINDOW_BYTES;
    while (hi > 0) {
      const lo = Math.max(0, hi - window);
      const buffer = reader.read(lo, hi);
      // The window ends with a newline (`hi` is a line start); its first line may be cut.
      const first = lo === 0 ? 0 : buffer.indexOf(NEWLINE) + 1;
      if (first === buffer.length && lo > 0) {
        window *= 2; // no line starts in the window: the last line is longer than it
        continue;
      }
      window = WINDOW_BYTES;
      for (const line of linesOf(buffer, first, needles)) {
        const event = parseEventLine(line);
        if (!event || !matches(event.type)) continue;
        if (filter.before !== undefined && event.seq >= filter.before) continue;
        if (!visit(event)) return false;
      }
      hi = lo + first;
    }
    return true;
  } finally {
    closeSync(fd);
  }
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

function needlesOf(types: readonly string[] | undefined): Buffer[] | null {
  if (!types || types.length === 0) return null;
  return types.map(needleOf);
}

/**
 * Visits the events of the log newest first — the live log, then the rotated ones — until
 * `visit` returns false. Returns true when every event was visited.
 */
export function scanBackward(
  log: EventLogPaths,
  filter: BackwardFilter,
  visit: (event: AgentEvent) => boolean,
): boolean {
  const needles = needlesOf(filter.types);
  if (!scanFile(log.events, filter, needles, visit)) return false;
  for (let g = 1; g <= MAX_GENERATIONS; g++) {
    const file = rotatedLogPath(log, g);
    if (!existsSync(file)) break;
    if (!scanFile(file, filter, needles, visit)) return false;
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
