// Reading the JSONL log: forward in large chunks from a byte offset (for the reducer and
// `events`), and backward from the end (for the appender's last seq; read-backward.ts reads whole
// pages newest first). A last line without its
// newline is a write in progress or a torn write: it is never consumed. A line that does not
// parse is skipped and reported.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { AgentEvent } from './types.js';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/** A line that was skipped because it is not an event. */
export interface CorruptLine {
  /** The seq of the last good event before it (0 at the start). */
  afterSeq: number;
  /** Byte offset of the line in the file. */
  offset: number;
}

export interface ReadLogResult {
  /** The offset just past the last complete line read: where the next read starts. */
  offset: number;
  /** The seq of the last event read (`seqBefore` if none). */
  lastSeq: number;
  corrupt: CorruptLine[];
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

/** `--type` matching: exact types, and `tool.*` for every type starting with `tool.`. */
export function typeMatcher(types: readonly string[] | undefined): (type: string) => boolean {
  if (!types || types.length === 0) return () => true;
  const exact = new Set(types.filter((t) => !t.endsWith('*')));
  const prefixes = types.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  return (type) => exact.has(type) || prefixes.some((p) => type.startsWith(p));
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
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry = 0; // bytes of an unfinished line kept at the start of `buffer`
    let position = offset;
    while (position < size) {
      if (carry === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2); // a line longer than the buffer
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, carry, buffer.length - carry, position);
      if (read === 0) break;
      position += read;
      const filled = carry + read;
      const lastNewline = buffer.lastIndexOf(NEWLINE, filled - 1);
      if (lastNewline < 0) {
        carry = filled;
        continue;
      }
      const chunkStart = result.offset;
      const text = buffer.toString('utf8', 0, lastNewline);
      result.offset += lastNewline + 1;
      parseChunk(text, chunkStart, result, onBatch);
      carry = filled - lastNewline - 1;
      buffer.copy(buffer, 0, lastNewline + 1, filled);
    }
  } finally {
    closeSync(fd);
  }
  return result;
}

function parseChunk(
  text: string,
  chunkStart: number,
  result: ReadLogResult,
  onBatch: (events: AgentEvent[]) => void,
): void {
  const events: AgentEvent[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== '') {
      const event = parseEventLine(line);
      if (event) {
        events.push(event);
        result.lastSeq = event.seq;
      } else {
        // Byte offsets equal string offsets only for ASCII; corrupt lines are rare, so only they pay.
        const offset = chunkStart + Buffer.byteLength(text.slice(0, start));
        result.corrupt.push({ afterSeq: result.lastSeq, offset });
      }
    }
    start = end + 1;
  }
  if (events.length > 0) onBatch(events);
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
  if (size === 0) return { lastSeq: 0, endsWithNewline: true };
  let window = Math.min(size, 64 * 1024);
  let endsWithNewline = true;
  for (;;) {
    const start = size - window;
    const buffer = Buffer.allocUnsafe(window);
    readSync(fd, buffer, 0, window, start);
    endsWithNewline = buffer[window - 1] === NEWLINE;
    // Complete lines only: drop the torn tail, and the first (maybe partial) line of the window.
    let end = endsWithNewline ? window - 1 : buffer.lastIndexOf(NEWLINE);
    while (end > 0) {
      const lineStart = buffer.lastIndexOf(NEWLINE, end - 1) + 1;
      if (lineStart === 0 && start > 0) break; // may be cut: widen the window
      const event = parseEventLine(buffer.toString('utf8', lineStart, end));
      if (event) return { lastSeq: event.seq, endsWithNewline };
      end = lineStart - 1;
    }
    if (start === 0) return { lastSeq: 0, endsWithNewline };
    window = Math.min(size, window * 4);
  }
}
