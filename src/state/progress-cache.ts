// A large progress.yaml's parsed value, in .agent/log/progress.json: YAML takes about a second
// for a 10,000-item plan, JSON.parse a few ms. Keyed by the text's sha256 and this build's version;
// texts under PROGRESS_CACHE_MIN_CHARS, the usual case, parse in a ms and are never cached.
import { createHash } from '../text/lazy-crypto.js';
import { isDeepStrictEqual } from 'node:util';
import { logCache } from './atomic-write.js';
import { packageVersion } from '../package-root.js';
import type { Progress } from '../types.js';
import type { StatePaths } from './paths.js';

/** Texts shorter than this are parsed every time. */
export const PROGRESS_CACHE_MIN_CHARS = 64 * 1024;

interface CacheFile {
  key: string;
  value: Progress;
}

const cacheOf = (paths: StatePaths) => logCache(paths, 'progress.json');

function keyOf(text: string): string {
  return `${packageVersion()}:sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The value this build validated for exactly `text`, or undefined. Never throws. */
export function cachedProgress(paths: StatePaths, text: string): Progress | undefined {
  if (text.length < PROGRESS_CACHE_MIN_CHARS) return undefined;
  const cache = cacheOf(paths).read() as Partial<CacheFile> | null | undefined;
  if (cache?.key !== keyOf(text) || typeof cache.value !== 'object' || cache.value === null)
    return undefined;
  return cache.value;
}

/** Remembers the validated value of a large `text` (when JSON holds it exactly). Never throws. */
export function rememberProgress(paths: StatePaths, text: string, value: Progress): void {
  if (text.length < PROGRESS_CACHE_MIN_CHARS) return;
  const json = JSON.stringify({ key: keyOf(text), value } satisfies CacheFile);
  // A value JSON cannot hold (an infinite number, say) is parsed from YAML every time.
  if (isDeepStrictEqual((JSON.parse(json) as CacheFile).value, value)) cacheOf(paths).write(json);
}
