// progress.yaml's parsed value, in .agent/log/progress.json, left by each write of it (and by a
// read of one over PROGRESS_CACHE_MIN_CHARS; a dry run of a small one writes nothing), so that
// `status` and `boot` run neither YAML nor ajv: YAML takes a second for a 10,000-item plan, and
// even for a small file loading its code was ~4 ms of each `boot`. Keyed by the exact text and this
// build's version: used only for those bytes, as this build validated them.
import { isDeepStrictEqual } from 'node:util';
import { logCache } from './atomic-write.js';
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

const cacheOf = (paths: StatePaths) => logCache(paths.logDir, 'progress.json');

/** The value this build validated for exactly `text`, or undefined. Never throws. */
export function cachedProgress(paths: StatePaths, text: string): Progress | undefined {
  const cache = cacheOf(paths).read() as Partial<CacheFile> | null | undefined;
  if (cache?.version !== packageVersion() || cache.text !== text) return undefined;
  return typeof cache.value === 'object' && cache.value !== null ? cache.value : undefined;
}

/** Remembers the validated value of `text` (when JSON holds it exactly). Never throws. */
export function rememberProgress(paths: StatePaths, text: string, value: Progress): void {
  const json = JSON.stringify({ version: packageVersion(), text, value } satisfies CacheFile);
  // A value JSON cannot hold (an infinite number, say) is parsed from YAML every time.
  if (isDeepStrictEqual((JSON.parse(json) as CacheFile).value, value)) cacheOf(paths).write(json);
}
