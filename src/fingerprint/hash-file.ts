// Hashing one file of the work tree: sync reads for small files (callback and promise reads of
// small files are 2–5× slower, DESIGN §9), a chunked read for large ones, never following a
// symlink (its link text is hashed, as git does), never reading a FIFO or a device.
import { createHash } from '../text/lazy-crypto.js';
import { lstatSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { readChunks } from '../state/read-text.js';
import { join } from 'node:path';
import type { FileState } from '../types.js';

/** Files up to this size are read in one call; larger ones in chunks. */
export const WHOLE_READ_MAX_BYTES = 1024 * 1024;

/** `sha256:<hex>` of some bytes. */
export function sha256(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

function hashChunked(path: string): string {
  const hash = createHash('sha256');
  readChunks(path, (chunk) => hash.update(chunk));
  return `sha256:${hash.digest('hex')}`;
}

/** The size-and-time stand-in for a file too large to hash. */
export function sizeState(stats: Stats): FileState {
  return `size:${stats.size} mtime:${new Date(stats.mtimeMs).toISOString()}`;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** A fingerprint's record of `path`: sha256, `size:… mtime:…` above `maxBytes`, `directory`; null: nothing. */
export function hashFile(path: string, maxBytes = Number.POSITIVE_INFINITY): FileState | null {
  const stats = lstatOrNull(path);
  if (stats === null) return null;
  if (stats.isSymbolicLink()) return sha256(readlinkSync(path, { encoding: 'buffer' }));
  if (stats.isDirectory()) return 'directory';
  if (!stats.isFile() || stats.size > maxBytes) return sizeState(stats);
  try {
    return stats.size <= WHOLE_READ_MAX_BYTES ? sha256(readFileSync(path)) : hashChunked(path);
  } catch (error) {
    // Removed between lstat and read: it is gone.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A file's state by its path under a root (hashFile's, or a cache's: fingerprint/hash-cache.ts). */
export type FileHasher = (rel: string, maxBytes?: number) => FileState | null;

/** hashFile for the paths under `root`. */
export function hasherAt(root: string): FileHasher {
  return (rel, maxBytes) => hashFile(join(root, rel), maxBytes);
}
