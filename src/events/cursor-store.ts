// Reading and writing publish cursors (.agent/log/publish-NAME.json). A cursor that cannot be read
// is treated as absent: the next publish is a full baseline, which is always safe.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { join } from 'node:path';
import type { EventLogPaths } from './log-paths.js';
import { PUBLISH_STRATEGIES, type PublishCursor } from './publish.js';
import { replaceFile } from '../state/atomic-write.js';

const CONSUMER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const cursorPath = (log: EventLogPaths, consumer: string) =>
  join(log.dir, `publish-${consumer}.json`);

/** The default consumer name. */
export const DEFAULT_CONSUMER = 'default';

/** Checks a consumer name (it becomes part of a file name). */
export function checkConsumerName(name: string): string {
  if (!CONSUMER_PATTERN.test(name))
    throw new UsageError(`invalid consumer name "${name}"`, {
      hint: 'use letters, digits, dot, dash or underscore (up to 64), like --consumer claude-main',
    });
  return name;
}

/** The consumer's cursor, or null when there is none (or it is unreadable). */
export function readCursor(log: EventLogPaths, consumer: string): PublishCursor | null {
  try {
    const cursor = JSON.parse(readFileSync(cursorPath(log, consumer), 'utf8')) as PublishCursor;
    const ok =
      cursor?.version === 1 &&
      PUBLISH_STRATEGIES.includes(cursor.strategy) &&
      typeof cursor.epoch === 'number' &&
      typeof cursor.hash === 'string' &&
      typeof cursor.baseline === 'object' &&
      cursor.baseline !== null &&
      typeof cursor.compactions === 'number';
    return ok ? cursor : null;
  } catch {
    return null;
  }
}

/** Stores the consumer's cursor. */
export function writeCursor(log: EventLogPaths, cursor: PublishCursor): void {
  replaceFile(cursorPath(log, cursor.consumer), `${JSON.stringify(cursor, null, 2)}\n`);
}
