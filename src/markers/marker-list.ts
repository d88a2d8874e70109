// A marker over more than INLINE_FILES files keeps its hashes beside progress.yaml, in
// `markers/<id>.<digest>.sha256` (sha256sum format), and progress.yaml only `file_list`. The digest
// in the name makes two branches add two files, never one conflicting file. An unused list git
// tracks is emptied, not removed: two removals plus new lists meet as a rename/rename conflict.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../fingerprint/hash-file.js';
import { trackedFiles } from '../git/list-files.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { listDir } from '../state/find-root.js';
import { orElse } from '../state/or-else.js';
import { displayPath, type StatePaths } from '../state/paths.js';
import type { Marker } from '../types.js';

/** Markers over at most this many files keep them inline in progress.yaml. */
export const INLINE_FILES = 32;

const LIST_FILE = /^(.+)\.([0-9a-f]{16})\.sha256$/;

/** The list file of marker `id` whose text has digest `sha256:<hex>`. */
export function listPath(paths: StatePaths, id: string, digest: string): string {
  return join(paths.markersDir, `${id}.${digest.slice(7, 23)}.sha256`);
}

// sha256sum's escaping: a line starting with `\` has `\\` and `\n` in its path.
const escapePath = (path: string) => path.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const unescapePath = (path: string) =>
  path.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));

function listText(files: Record<string, string>): string {
  return Object.keys(files)
    .sort()
    .map((path) => {
      const hex = files[path]!.slice(7);
      return /[\\\n]/.test(path) ? `\\${hex}  ${escapePath(path)}\n` : `${hex}  ${path}\n`;
    })
    .join('');
}

/**
 * The marker fields for `files`: inline when few, else a list file written now (atomically) and
 * its digest. Hashes are `sha256:<hex>`.
 */
export function storeMarkerFiles(
  paths: StatePaths,
  id: string,
  files: Record<string, string>,
): Pick<Marker, 'files' | 'file_list'> {
  const count = Object.keys(files).length;
  if (count <= INLINE_FILES) return { files };
  const text = listText(files);
  const digest = sha256(text);
  mkdirSync(paths.markersDir, { recursive: true });
  writeFileAtomic(listPath(paths, id, digest), text);
  return { file_list: { count, sha256: digest } };
}

/** Why a marker's list cannot be read: the file is gone, or its bytes are not the digest's. */
export type ListProblem = 'missing' | 'damaged';

/** The files of a marker and their recorded hashes: inline, or read from its list file. */
export function markerFiles(
  paths: StatePaths,
  id: string,
  marker: Marker,
): Record<string, string> | ListProblem {
  if (!marker.file_list) return marker.files ?? {};
  const list = listPath(paths, id, marker.file_list.sha256);
  const text = orElse(() => readFileSync(list, 'utf8'), null);
  if (text === null) return 'missing';
  if (sha256(text) !== marker.file_list.sha256) return 'damaged';
  const files: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const escaped = line.startsWith('\\');
    const hex = line.slice(escaped ? 1 : 0, escaped ? 65 : 64);
    const path = line.slice(escaped ? 67 : 66);
    files[escaped ? unescapePath(path) : path] = `sha256:${hex}`;
  }
  return files;
}

/** How many files a marker covers. */
export function markerFileCount(marker: Marker): number {
  return marker.file_list?.count ?? Object.keys(marker.files ?? {}).length;
}

/** Removes (or, when git tracks them, empties) the lists no marker of `markers` names. */
export function sweepMarkerLists(
  paths: StatePaths,
  markers: Readonly<Record<string, Marker>>,
  env?: NodeJS.ProcessEnv,
): void {
  const unused = listDir(paths.markersDir).filter((name) => {
    const match = LIST_FILE.exec(name);
    return match && markers[match[1]!]?.file_list?.sha256.slice(7, 23) !== match[2];
  });
  if (unused.length === 0) return;
  const rel = (name: string) => displayPath(paths, join(paths.markersDir, name));
  // Outside git: nothing to merge.
  const tracked = orElse(() => trackedFiles(paths.root, unused.map(rel), env), new Set<string>());
  for (const name of unused) {
    const path = join(paths.markersDir, name);
    if (!tracked.has(rel(name))) rmSync(path, { force: true });
    else if (statSync(path).size > 0) writeFileAtomic(path, '');
  }
}
