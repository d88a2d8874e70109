// `status --publish` for harnesses: the status told to a named consumer as a delta from its cursor.
import type { BaseOptions } from '../types.js';
import * as cursors from '../events/cursor-store.js';
import { eventLogPaths } from '../events/log-paths.js';
import { publishStatus } from '../events/publish.js';
import type * as P from '../events/publish.js';
import { readStatus, type ReadStatusResult } from './read-status.js';
import type { StatusFormat } from '../events/render.js';

export interface PublishToOptions extends BaseOptions {
  strategy: P.PublishStrategy;
  /** Default `xml`. */
  format?: StatusFormat;
  /** Default `default`. */
  consumer?: string;
  /** Start a new epoch with a full baseline. */
  reset?: boolean;
  /** A status already read (skips reading it again). */
  status?: ReadStatusResult;
  /** Publish only a change of these sections (see PublishOptions.only). */
  only?: P.PublishOptions['only'];
}

/** Publishes the current status to one consumer and moves its cursor; `output` null = nothing new. */
export async function publishStatusTo(
  options: PublishToOptions,
): Promise<P.PublishResult & { consumer: string; status: ReadStatusResult }> {
  const consumer = cursors.checkConsumerName(options.consumer ?? cursors.DEFAULT_CONSUMER);
  const status = options.status ?? (await readStatus(options));
  const log = eventLogPaths(status.state.paths);
  const result = publishStatus(cursors.readCursor(log, consumer), status.view, {
    strategy: options.strategy,
    format: options.format ?? 'xml',
    consumer,
    compactions: status.snapshot.compactions,
    reset: options.reset === true,
    only: options.only,
  });
  if (result.cursorChanged) cursors.writeCursor(log, result.cursor);
  return { ...result, consumer, status };
}
