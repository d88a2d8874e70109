// Loading the separately bundled commands (lazy-entry.ts, dist/bundle/lazy-entry.js) from the
// main CLI bundle.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentStateError, type ErrorCode, type SourceLocation } from '../errors.js';
import { packageRoot } from '../package-root.js';
import type * as LazyEntry from './lazy-entry.js';

const CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'USAGE',
  'INVALID',
  'NOT_INITIALIZED',
  'BUSY',
  'CONFLICT',
  'CHECK_FAILED',
  'INTERNAL',
]);

/** The lazily bundled commands' library functions (a runtime path keeps them out of this bundle). */
export async function loadLazy(): Promise<typeof LazyEntry> {
  const entry = pathToFileURL(join(packageRoot(), 'dist', 'bundle', 'lazy-entry.js'));
  return (await import(entry.href)) as typeof LazyEntry;
}

/**
 * An error from the other bundle is an instance of that bundle's classes: re-create it as this
 * bundle's AgentStateError, so that main.ts maps it to its exit code like any other.
 */
export function adoptError(error: unknown): unknown {
  if (error instanceof AgentStateError || !(error instanceof Error)) return error;
  const foreign = error as Error & {
    code?: unknown;
    hint?: string;
    location?: SourceLocation;
    details?: unknown;
  };
  if (typeof foreign.code !== 'string' || !CODES.has(foreign.code)) return error;
  return new AgentStateError(foreign.code as ErrorCode, foreign.message, {
    hint: foreign.hint,
    location: foreign.location,
    details: foreign.details,
    cause: error,
  });
}

/** Runs `fn`, re-throwing the other bundle's errors as ours. */
export async function adopting<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw adoptError(error);
  }
}
