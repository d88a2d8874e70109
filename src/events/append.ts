// Appending to the event log under its own short lock (not the state lock): read the last seq from
// the tail, one write() on an O_APPEND fd, rotate past `log.rotate_bytes`. The lock makes seq unique
// and increasing across processes; O_APPEND keeps each line whole for a reader that holds no lock.
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { findRoot } from '../state/find-root.js';
import { acquireLock } from '../state/lock.js';
import { displayPath, type StatePaths } from '../state/paths.js';
import type { BaseOptions, Warning } from '../types.js';
import { eventLogPaths, type EventLogPaths } from './log-paths.js';
import { cachedLogSettings } from '../state/config-cache.js';
import { readTail } from './read-log.js';
import { rotateLog } from './rotate.js';
import type { AgentEvent, EventInput } from './types.js';
import { prepareEvent } from './validate-event.js';

/** Smallest `log.rotate_bytes` the config schema allows: below it no append looks at the config. */
const MIN_ROTATE_BYTES = 4096;

export interface AppendOptions extends BaseOptions {
  /** The state root's paths, when the caller already has them (skips the root search). */
  paths?: StatePaths;
  /** How long to wait for the log lock. Default 10 s. */
  timeoutMs?: number;
}

/** Runs `fn` holding the log lock (appends and rotations hold it for an instant). */
export async function withLogLock<T>(
  paths: StatePaths,
  log: EventLogPaths,
  fn: () => T | Promise<T>,
  options: AppendOptions = {},
): Promise<T> {
  mkdirSync(log.dir, { recursive: true });
  const lock = await acquireLock(log.lock, {
    timeoutMs: options.timeoutMs,
    now: options.now,
    display: displayPath(paths, log.lock),
  });
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/**
 * Validates and appends events, in order, each with the next seq. Returns them as written.
 * Throws UsageError for an invalid event (nothing is written), BusyError if the lock is held too long.
 */
export async function appendEvents(
  inputs: readonly EventInput[],
  options: AppendOptions = {},
): Promise<AgentEvent[]> {
  const now = (options.now ?? (() => new Date()))();
  const prepared = inputs.map((input) => prepareEvent(input, now));
  const paths = options.paths ?? findRoot(options.cwd);
  const log = eventLogPaths(paths);
  const append = async () => {
    const fd = openSync(log.events, 'a+', 0o644);
    let size: number;
    const written: AgentEvent[] = [];
    try {
      size = fstatSync(fd).size;
      const tail = readTail(fd, size);
      let seq = tail.lastSeq;
      let text = '';
      for (const event of prepared) {
        const full = { seq: ++seq, ...event } as AgentEvent;
        text += `${JSON.stringify(full)}\n`;
        written.push(full);
      }
      // After a torn write the file ends mid-line: start on a fresh line so ours stays whole.
      const bytes = Buffer.from(tail.endsWithNewline || !text ? text : `\n${text}`, 'utf8');
      for (let offset = 0; offset < bytes.length;)
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      size += bytes.length;
    } finally {
      closeSync(fd);
    }
    if (size >= MIN_ROTATE_BYTES) {
      const settings = await cachedLogSettings(paths);
      if (size >= settings.rotate_bytes) rotateLog(log, settings, now);
    }
    return written;
  };
  return withLogLock(paths, log, append, options);
}

/** Appends one event; see appendEvents. */
export async function appendEvent(
  input: EventInput,
  options: AppendOptions = {},
): Promise<AgentEvent> {
  const [event] = await appendEvents([input], options);
  return event!;
}

/** How long a command waits for the log lock before giving up on recording (the log is busy). */
const RECORD_TIMEOUT_MS = 2_000;

export interface RecordResult {
  /** The event as written, or null when it could not be. */
  event: AgentEvent | null;
  /** Why it could not be written, as a warning to print. */
  warning: Warning | null;
}

/**
 * How agent-state's own commands add their facts; never throws (the command's work is done, so an
 * unwritable log must not fail it). `actor` defaults to `system`. Returns the event or a warning.
 */
export async function recordEvent(
  paths: StatePaths,
  input: EventInput,
  options: BaseOptions = {},
): Promise<RecordResult> {
  try {
    const event = await appendEvent(
      { actor: 'system', ...input },
      { ...options, paths, timeoutMs: RECORD_TIMEOUT_MS },
    );
    return { event, warning: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `could not record the ${input.type} event (${reason}); the command itself succeeded`;
    return { event: null, warning: { file: '.agent/log/events.jsonl', message } };
  }
}
