// A marker over many files (marker-list.ts) checked without reading them: a local record per list
// (.agent/log/marker-lists.json) says at which HEAD git vouched for every file but the few it
// watches. A check hashes those and what git reports changed since (dirty, untracked, or in the
// commits between the HEADs); with no usable record (a fresh clone) every file is hashed once.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { hashFile } from '../fingerprint/hash-file.js';
import { trackedFiles } from '../git/list-files.js';
import { pathsChangedBetween } from '../git/paths-status.js';
import type { GitSnapshot } from '../git/snapshot.js';
import type { StatePaths } from '../state/paths.js';
import { isAgentPath } from '../state/repo-path.js';
import type { Marker } from '../types.js';
import { keepOnly } from '../fingerprint/hash-cache.js';
import { logCache } from '../state/atomic-write.js';
import { listPath, markerFiles, type ListProblem } from './marker-list.js';

interface ListRecord {
  head: string;
  /** The list file's size, mtime and inode when it was last read: another one is read again. */
  list: string;
  /** Files of the list git does not vouch for, with their recorded hashes: hashed every time. */
  watch: Record<string, string>;
  /** Changed paths known not to be in the list. */
  others: string[];
}

// Beyond this, the paths known to be outside the list are forgotten (the list is read instead).
const MAX_OTHERS = 5000;

/** One file of a marker that no longer hashes the same. */
export interface MarkerChange {
  path: string;
  /** `changed` content, `deleted` (or renamed away), `outside` (now reached through a symlink leaving the root). */
  reason: 'changed' | 'deleted' | 'outside';
}

/** The files of `files` (path → recorded hash) that no longer hash as recorded. */
export function changedFiles(
  files: Record<string, string>,
  inside: (rel: string) => boolean,
  hash: (rel: string) => string | null,
): MarkerChange[] {
  return Object.entries(files).flatMap(([path, recorded]) => {
    const now = inside(path) ? hash(path) : 'outside';
    if (now === recorded) return [];
    return [{ path, reason: now === 'outside' ? now : now === null ? 'deleted' : 'changed' }];
  });
}

/** The records of one log folder (written by `save` when they changed). */
export function openListRecords(logDir: string) {
  const cache = logCache(logDir, 'marker-lists.json');
  const read = cache.read() as { version?: number; lists?: Record<string, ListRecord> } | undefined;
  const lists = (read?.version === 1 && typeof read.lists === 'object' && read.lists) || {};
  let changed = false;
  return {
    get(digest: string): ListRecord | undefined {
      const r = lists[digest];
      // A record edited by hand is no record.
      const ok =
        typeof r?.head === 'string' &&
        typeof r.list === 'string' &&
        typeof r.watch === 'object' &&
        r.watch !== null &&
        Array.isArray(r.others);
      return ok ? r : undefined;
    },
    set(digest: string, record: ListRecord): void {
      if (JSON.stringify(lists[digest]) === JSON.stringify(record)) return;
      lists[digest] = record;
      changed = true;
    },
    /** Drops the records of lists no marker names any more. */
    keepOnly(digests: ReadonlySet<string>): void {
      if (keepOnly(lists, digests)) changed = true;
    },
    save(): void {
      if (changed) cache.write(JSON.stringify({ version: 1, lists }));
    },
  };
}

export type ListRecords = ReturnType<typeof openListRecords>;

/** The changed paths of a snapshot (dirty and untracked), outside `.agent/`. */
export function touchedPaths(snapshot: GitSnapshot): string[] {
  return [...snapshot.changed.map((c) => c.path), ...snapshot.untracked].filter(
    (p) => !isAgentPath(p),
  );
}

interface ListContext {
  paths: StatePaths;
  snapshot: GitSnapshot | null;
  records: ListRecords | null;
  inside: (rel: string) => boolean;
  env?: NodeJS.ProcessEnv;
}

function listStamp(ctx: ListContext, id: string, digest: string): string | null {
  const stat = statSync(listPath(ctx.paths, id, digest), { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : null;
}

/**
 * The changed files of list marker `id` (or why its list file cannot be read), and the new record
 * of what git vouches for.
 */
export function checkListMarker(
  ctx: ListContext,
  id: string,
  marker: Marker,
): MarkerChange[] | ListProblem {
  const { root } = ctx.paths;
  const digest = marker.file_list!.sha256;
  const head = ctx.snapshot?.head ?? null;
  const stamp = listStamp(ctx, id, digest);
  if (stamp === null) return 'missing';
  const found = head === null ? undefined : ctx.records?.get(digest);
  // The record stands in for the list only while the list is the one it was made from.
  const record = found?.list === stamp ? found : undefined;
  const moved =
    record && head !== null && record.head !== head
      ? pathsChangedBetween(root, record.head, head, ctx.env)
      : [];
  const touched = [
    ...new Set([...(ctx.snapshot ? touchedPaths(ctx.snapshot) : []), ...(moved ?? [])]),
  ];
  // Without a record (or git's view of the commits since), the whole list is checked.
  const full = !(record && moved);
  const known = new Set(record?.others);
  const unknown = (p: string) => !(p in record!.watch) && !known.has(p) && !isAgentPath(p);
  const list = full || touched.some(unknown) ? markerFiles(ctx.paths, id, marker) : {};
  if (typeof list === 'string') return list;
  const candidates = full ? list : { ...record!.watch };
  if (!full) for (const p of touched) if (p in list) candidates[p] = list[p]!;
  const changed = changedFiles(candidates, ctx.inside, (rel) => hashFile(join(root, rel)));
  const bad = new Set(changed.map((c) => c.path));
  if (head !== null) vouch(ctx, id, digest, candidates, bad, touched, full);
  return changed;
}

// Records what git vouches for now: the candidates hashed as recorded, clean now, and tracked (a
// full check asks git once for every tracked file; an update only for the files in question).
function vouch(
  ctx: ListContext,
  id: string,
  digest: string,
  candidates: Record<string, string>,
  bad: ReadonlySet<string>,
  touched: readonly string[],
  full: boolean,
): void {
  const head = ctx.snapshot?.head;
  const list = listStamp(ctx, id, digest);
  if (!ctx.records || !head || list === null) return;
  const dirty = new Set(touchedPaths(ctx.snapshot!));
  const maybe = Object.keys(candidates).filter((p) => !bad.has(p) && !dirty.has(p));
  const tracked = trackedFiles(ctx.paths.root, full || maybe.length > 1000 ? null : maybe, ctx.env);
  const watch: Record<string, string> = {};
  for (const [path, hash] of Object.entries(candidates))
    if (bad.has(path) || dirty.has(path) || !tracked.has(path)) watch[path] = hash;
  const others = touched.filter((p) => !(p in candidates) && !isAgentPath(p));
  const kept = others.length > MAX_OTHERS ? [] : others;
  ctx.records.set(digest, { head, list, watch, others: kept });
}

/** Records a list just written (its files hashed a moment ago) as vouched for by git. */
export function seedListRecord(
  ctx: ListContext,
  id: string,
  digest: string,
  files: Record<string, string>,
): void {
  if (ctx.snapshot) vouch(ctx, id, digest, files, new Set(), touchedPaths(ctx.snapshot), true);
}
