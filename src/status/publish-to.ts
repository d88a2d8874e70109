// `status --publish` for harnesses: the status told to a named consumer as a delta from its cursor.
import type { BaseOptions } from '../types.js';
import {
  checkConsumerName,
  DEFAULT_CONSUMER,
  readCursor,
  writeCursor,
} from '../events/cursor-store.js';
import { eventLogPaths } from '../events/log-paths.js';
import {
  publishStatus,
  type PublishOptions,
  type PublishResult,
  type PublishStrategy,
} from '../events/publish.js';
import { readStatus, type ReadStatusResult } from './read-status.js';
import type { StatusFormat } from '../events/render.js';

export interface PublishToOptions extends BaseOptions {
  strategy: PublishStrategy;
  /** Default `xml`. */
  format?: StatusFormat;
  /** Default `default`. */
  consumer?: string;
  /** Start a new epoch with a full baseline. */
  reset?: boolean;
  /** A status already read (skips reading it again). */
  status?: ReadStatusResult;
  /** Publish only a change of these sections (see PublishOptions.only). */
  only?: PublishOptions['only'];
}

/** Publishes the current status to one consumer and moves its cursor; `output` null = nothing new. */
export async function publishStatusTo(
  options: PublishToOptions,
): Promise<PublishResult & { consumer: string; status: ReadStatusResult }> {
  const consumer = checkConsumerName(options.consumer ?? DEFAULT_CONSUMER);
  const status = options.status ?? (await readStatus(options));
  const log = eventLogPaths(status.state.paths);
  const result = publishStatus(readCursor(log, consumer), status.view, {
    strategy: options.strategy,
    format: options.format ?? 'xml',
    consumer,
    compactions: status.snapshot.compactions,
    reset: options.reset === true,
    only: options.only,
  });
  if (result.cursorChanged) writeCursor(log, result.cursor);
  return { ...result, consumer, status };
}
