// Is a step still done? Re-hashes the files a completion marker recorded and says, per id, valid
// (every file hashes the same), stale (naming what changed), missing (no marker) or unverifiable
// (a marker without files). Used by `check`, `verify`, `checkpoint`, and the git hooks.
import { hasherAt, type FileHasher } from '../fingerprint/hash-file.js';
import { readGitSnapshot, type GitSnapshot } from '../git/snapshot.js';
import { openHashCache } from '../fingerprint/hash-cache.js';
import { changedFiles, checkListMarker, openListRecords, type MarkerChange } from './list-check.js';

export type { MarkerChange };
import { listPath, type ListProblem } from './marker-list.js';
import { displayPath, statePaths, type StatePaths } from '../state/paths.js';
import { findRepo } from '../state/find-root.js';
import { loadState } from '../task/load-state.js';
import { insideChecker, staysInside } from '../state/repo-path.js';
import type { BaseOptions, Marker, PlanStatus, Progress } from '../types.js';

export type MarkerState = 'valid' | 'stale' | 'missing' | 'unverifiable';

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
  /** Why an `unverifiable` marker that has files cannot be checked, and the fix. */
  problem?: { what: string; fix: string };
}

// A big marker whose list file is gone or altered: nothing says whether its files still hash the same.
function listProblem(paths: StatePaths, id: string, marker: Marker, problem: ListProblem) {
  const rel = displayPath(paths, listPath(paths, id, marker.file_list!.sha256));
  return {
    what: `its file list ${rel} ${problem === 'missing' ? 'is missing' : 'does not match its digest in progress.yaml'}`,
    fix: `restore it (\`git checkout -- ${rel}\`) or record the files again (\`agent-state done ${id} ${marker.globs?.length ? '--refresh' : '--files GLOB...'}\`)`,
  };
}

/** The files the markers of `progress` cover one by one. */
export function markerFiles(progress: Progress): Set<string> {
  return new Set(Object.values(progress.markers ?? {}).flatMap((m) => Object.keys(m.files ?? {})));
}

/** Judges one marker against the files on disk under `root`. */
export function evaluateMarker(
  root: string,
  id: string,
  marker: Marker | undefined,
  status: PlanStatus | null,
  inside: (rel: string) => boolean = (rel) => staysInside(root, rel),
  hash: FileHasher = hasherAt(root),
): MarkerCheck {
  if (!marker) return { id, state: 'missing', changed: [], status, at: null, files: 0 };
  const files = marker.files ?? {};
  const changed = changedFiles(files, inside, hash);
  const count = Object.keys(files).length;
  const state = count === 0 ? 'unverifiable' : changed.length > 0 ? 'stale' : 'valid';
  return { id, state, changed, status, at: marker.at, files: count };
}

/**
 * Checks the markers of `ids` (every marker when omitted) in a progress value. With `logDir`, a
 * file whose size, mtime, ctime and inode are those of its cached hash is not read again
 * (fingerprint/hash-cache.ts); with git's `snapshot` too, git vouches for the tracked files of a marker over
 * many files (list-check.ts). A `cache` of the caller's is used instead, and left to it to save.
 */
export function checkProgressMarkers(
  root: string,
  progress: Progress,
  ids?: readonly string[],
  logDir?: string,
  options: {
    save?: boolean;
    snapshot?: GitSnapshot | null;
    env?: NodeJS.ProcessEnv;
    cache?: ReturnType<typeof openHashCache>;
  } = {},
): MarkerCheck[] {
  const markers = progress.markers ?? {};
  const statuses = new Map((progress.plan ?? []).map((item) => [item.id, item.status]));
  const inside = insideChecker(root);
  const own = options.cache === undefined && logDir !== undefined;
  const cache = options.cache ?? (own ? openHashCache(root, logDir) : undefined);
  const paths = statePaths(root);
  const snapshot = options.snapshot ?? null;
  const records = logDir === undefined || !snapshot ? null : openListRecords(logDir);
  const list = { paths, snapshot, records, inside, env: options.env };
  const checks = (ids ?? Object.keys(markers)).map((id): MarkerCheck => {
    const marker = markers[id];
    const status = statuses.get(id) ?? null;
    if (!marker?.file_list) return evaluateMarker(root, id, marker, status, inside, cache?.hash);
    const changed = checkListMarker(list, id, marker);
    const base = { id, status, at: marker.at, files: marker.file_list.count };
    if (typeof changed !== 'string')
      return { ...base, state: changed.length > 0 ? 'stale' : 'valid', changed };
    const problem = listProblem(paths, id, marker, changed);
    return { ...base, state: 'unverifiable', changed: [], problem };
  });
  if (options.save !== false) {
    if (ids === undefined) {
      records?.keepOnly(new Set(Object.values(markers).flatMap((m) => m.file_list?.sha256 ?? [])));
      if (own) cache?.save(markerFiles(progress));
    } else if (own) cache?.save();
    records?.save();
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
  const allowed = options.allowUnverifiable === true && check.state === 'unverifiable';
  return check.state === 'valid' || allowed;
}

/** Loads the state of `cwd` and checks its markers (asking git for its view when a big marker needs it). */
export async function checkMarkers(options: CheckMarkersOptions = {}): Promise<CheckMarkersResult> {
  const { paths, progress } = loadState({ cwd: options.cwd, env: options.env });
  const { gitRoot } = findRepo(paths.root);
  const wanted = options.ids ?? Object.keys(progress.markers ?? {});
  const snapshot =
    gitRoot !== null && wanted.some((id) => progress.markers?.[id]?.file_list)
      ? await readGitSnapshot(paths.root, gitRoot, options.env)
      : null;
  const markers = checkProgressMarkers(paths.root, progress, options.ids, paths.logDir, {
    snapshot,
    env: options.env,
  });
  return { ok: markers.every((m) => isDone(m, options)), markers };
}
