// The hashes of files in .agent/log/hashes.json (local) with size, mtime, ctime and inode, so a big
// marker, or a boot's changed files, cost a stat per file: a file is hashed again when one differs
// (as git's index), or when modified within RACY_MS before the cache was written (git's "racily
// clean"). A missing, damaged or foreign cache only means hashing again. Only what informs the
// agent reads it (check, a boot); a checkpoint records what it hashes itself.
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { hashFile, type FileHasher } from './hash-file.js';
import { logCache } from '../state/atomic-write.js';
import { orElse } from '../state/or-else.js';
import type { FileState } from '../types.js';

// The timestamp granularity assumed of any file system (FAT's is 2 s).
const RACY_MS = 2000;
const VERSION = 1;

type Entry = [size: number, mtimeMs: number, ctimeMs: number, ino: number, hash: FileState];

interface CacheFile {
  version: number;
  /** When the cache was written (ms): entries modified later than `at - RACY_MS` are not trusted. */
  at: number;
  entries: Record<string, Entry>;
}

/** The cache's file in a log folder. */
export function hashCachePath(logDir: string): string {
  return logCache(logDir, 'hashes.json').file;
}

/** Deletes the keys of `record` not in `keep`; whether any went. */
export function keepOnly(record: Record<string, unknown>, keep: ReadonlySet<string>): boolean {
  const gone = Object.keys(record).filter((key) => !keep.has(key));
  for (const key of gone) delete record[key];
  return gone.length > 0;
}

const matches = (entry: unknown, stats: Stats): entry is Entry =>
  Array.isArray(entry) &&
  entry.length === 5 &&
  [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino].every((v, i) => entry[i] === v) &&
  typeof entry[4] === 'string';

/**
 * A hasher for the files under `root` backed by the cache in `logDir`; `save()` writes what it
 * learned (only when something changed, never throwing), with `keep` dropping the entries of
 * files neither in it nor hashed by this run.
 */
export function openHashCache(root: string, logDir: string, now: () => number = Date.now) {
  const cache = logCache(logDir, 'hashes.json');
  const read = cache.read() as CacheFile | undefined;
  const valid = read?.version === VERSION && typeof read.at === 'number';
  const stored = valid && typeof read.entries === 'object' && read.entries !== null ? read : null;
  const trustedBefore = stored ? stored.at - RACY_MS : -Infinity;
  const next: Record<string, Entry> = { ...stored?.entries };
  const used = new Set<string>();
  let changed = false;
  const hash: FileHasher = (rel, maxBytes = Number.POSITIVE_INFINITY) => {
    const abs = join(root, rel);
    const stats = orElse(() => lstatSync(abs), null);
    // Only whole-file hashes are kept: a file over `maxBytes` is its size and time, at no cost.
    if (!stats?.isFile() || stats.size > maxBytes) return hashFile(abs, maxBytes);
    used.add(rel);
    const old = stored?.entries[rel];
    if (matches(old, stats) && stats.mtimeMs < trustedBefore) return old[4];
    const state = hashFile(abs);
    if (state === null) return null;
    next[rel] = [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino, state];
    changed = true;
    return state;
  };
  return {
    hash,
    save(keep?: ReadonlySet<string>): void {
      if (keep && keepOnly(next, new Set([...keep, ...used]))) changed = true;
      if (changed) cache.write(JSON.stringify({ version: VERSION, at: now(), entries: next }));
    },
  };
}
