// Is a step still done? Re-hashes the files a completion marker recorded and says, per id, valid
// (every file hashes the same), stale (naming what changed), missing (no marker) or unverifiable
// (a marker without files). Used by `check`, `verify`, `checkpoint`, and the git hooks.
import { join } from 'node:path';
import { hashFile } from '../fingerprint/hash-file.js';
import { openHashCache, type MarkerHasher } from './hash-cache.js';
import { loadState } from '../task/load-state.js';
import { insideChecker, staysInside } from '../state/repo-path.js';
import type { BaseOptions, Marker, PlanStatus, Progress } from '../types.js';

export type MarkerState = 'valid' | 'stale' | 'missing' | 'unverifiable';

/** One file of a marker that no longer hashes the same. */
export interface MarkerChange {
  path: string;
  /** `changed` content, `deleted` (or renamed away), `outside` (now reached through a symlink leaving the root). */
  reason: 'changed' | 'deleted' | 'outside';
}

/** The verdict on one id. */
export interface MarkerCheck {
  id: string;
  state: MarkerState;
  changed: MarkerChange[];
  /** The plan item's status, or null when the plan has no such id. */
  status: PlanStatus | null;
  /** When the marker was recorded; null when missing. */
  at: string | null;
  /** How many files the marker covers. */
  files: number;
}

/** Judges one marker against the files on disk under `root`. */
export function evaluateMarker(
  root: string,
  id: string,
  marker: Marker | undefined,
  status: PlanStatus | null,
  inside: (rel: string) => boolean = (rel) => staysInside(root, rel),
  hash: MarkerHasher = (rel) => hashFile(join(root, rel)),
): MarkerCheck {
  if (!marker) return { id, state: 'missing', changed: [], status, at: null, files: 0 };
  const paths = Object.keys(marker.files);
  const changed: MarkerChange[] = [];
  for (const path of paths) {
    if (!inside(path)) {
      changed.push({ path, reason: 'outside' });
      continue;
    }
    const now = hash(path);
    if (now === null) changed.push({ path, reason: 'deleted' });
    else if (now !== marker.files[path]) changed.push({ path, reason: 'changed' });
  }
  const state = paths.length === 0 ? 'unverifiable' : changed.length > 0 ? 'stale' : 'valid';
  return { id, state, changed, status, at: marker.at, files: paths.length };
}

/**
 * Checks the markers of `ids` (every marker when omitted) in a progress value. With `logDir`, a
 * file whose size, mtime, ctime and inode are those of its cached hash is not read again
 * (hash-cache.ts).
 */
export function checkProgressMarkers(
  root: string,
  progress: Progress,
  ids?: readonly string[],
  logDir?: string,
  cacheOptions: { save?: boolean } = {},
): MarkerCheck[] {
  const markers = progress.markers ?? {};
  const statuses = new Map((progress.plan ?? []).map((item) => [item.id, item.status]));
  const inside = insideChecker(root);
  const cache = logDir === undefined ? undefined : openHashCache(root, logDir);
  const checks = (ids ?? Object.keys(markers)).map((id) =>
    evaluateMarker(root, id, markers[id], statuses.get(id) ?? null, inside, cache?.hash),
  );
  if (cache && cacheOptions.save !== false) {
    const all = ids === undefined ? new Set<string>() : undefined;
    if (all)
      for (const marker of Object.values(markers))
        for (const f of Object.keys(marker.files)) all.add(f);
    cache.save(all);
  }
  return checks;
}

export interface CheckMarkersOptions extends BaseOptions {
  /** The ids to check; every recorded marker when omitted. */
  ids?: readonly string[];
  /** Count `unverifiable` (a marker without files) as done. Default false: nothing proves it still is. */
  allowUnverifiable?: boolean;
}

export interface CheckMarkersResult {
  /** True when every id is valid (or unverifiable, with `allowUnverifiable`). */
  ok: boolean;
  markers: MarkerCheck[];
}

/** Whether a verdict counts as done and still valid (a marker without files only when allowed). */
export function isDone(check: MarkerCheck, options: { allowUnverifiable?: boolean } = {}): boolean {
  return (
    check.state === 'valid' ||
    (options.allowUnverifiable === true && check.state === 'unverifiable')
  );
}

/** Loads the state of `cwd` and checks its markers. */
export function checkMarkers(options: CheckMarkersOptions = {}): CheckMarkersResult {
  const { paths, progress } = loadState({ cwd: options.cwd });
  const markers = checkProgressMarkers(paths.root, progress, options.ids, paths.logDir);
  return { ok: markers.every((m) => isDone(m, options)), markers };
}
