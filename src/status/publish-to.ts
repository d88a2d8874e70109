// `status --publish` for harnesses: the status told to a named consumer as a delta from its cursor.
import type { BaseOptions } from '../types.js';
import * as cursors from '../events/cursor-store.js';
import { eventLogPaths } from '../events/log-paths.js';
import { publishStatus } from '../events/publish.js';
import type * as P from '../events/publish.js';
import { readStatus, type ReadStatusResult } from './read-status.js';

/** publishStatus's options; format (default `xml`) and consumer (default `default`) optional. */
export interface PublishToOptions
  extends
    BaseOptions,
    Pick<P.PublishOptions, 'strategy'>,
    Partial<Pick<P.PublishOptions, 'format' | 'consumer' | 'reset' | 'only'>> {
  /** A status already read (skips reading it again). */
  status?: ReadStatusResult;
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
