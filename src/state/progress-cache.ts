// The parsed value of progress.yaml, kept in .agent/log/progress.json by each write of it (and by
// a read of a large one), so that the readers (`status`, `boot`) run neither the YAML parser nor
// the schema validators: the parser takes about a second for a 10,000-item plan (its document
// keeps every position and comment), and even for a small file loading its code was ~4 ms of
// each `boot`; JSON.parse takes a few milliseconds at most. The cache holds the exact text it was
// made from and this build's version, so it is only ever used for those bytes, as this build
// validated them; a missing, stale or damaged cache just means parsing again.
import { mkdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { replaceFile } from './atomic-write.js';
import { packageVersion } from '../package-root.js';
import type { Progress } from '../types.js';
import type { StatePaths } from './paths.js';

/** A read of a text this long makes the cache (each write makes it, whatever the size). */
export const PROGRESS_CACHE_MIN_CHARS = 64 * 1024;

interface CacheFile {
  version: string;
  text: string;
  value: Progress;
}

function cacheFile(paths: StatePaths): string {
  return join(paths.logDir, 'progress.json');
}

/** The value this build validated for exactly `text`, or undefined. Never throws. */
export function cachedProgress(paths: StatePaths, text: string): Progress | undefined {
  try {
    const cache = JSON.parse(readFileSync(cacheFile(paths), 'utf8')) as Partial<CacheFile>;
    if (cache.version !== packageVersion() || cache.text !== text) return undefined;
    return typeof cache.value === 'object' && cache.value !== null ? cache.value : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the validated value of `text` (when JSON holds it exactly). Never throws. */
export function rememberProgress(paths: StatePaths, text: string, value: Progress): void {
  try {
    const json = JSON.stringify({ version: packageVersion(), text, value } satisfies CacheFile);
    // A value JSON cannot hold (an infinite number, say) is parsed from YAML every time.
    if (!isDeepStrictEqual((JSON.parse(json) as CacheFile).value, value)) return;
    mkdirSync(paths.logDir, { recursive: true });
    replaceFile(cacheFile(paths), json);
  } catch {
    // A cache that cannot be written is only slower.
  }
}
