// `done ID --files ...`: the proof that a step is finished — the sha256 of every file it produced,
// HEAD, the last known test result — recorded together with the plan item's `done` status; and
// `undone ID`, which withdraws it (the step must be redone or re-proven).
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { hashFile } from '../fingerprint/hash-file.js';
import { resolveGlobs } from '../fingerprint/resolve-globs.js';
import { readHead } from '../git/head.js';
import { readGitSnapshot } from '../git/snapshot.js';
import { valueOrThrow } from '../state/parsed-file.js';
import type { StatePaths } from '../state/paths.js';
import { setPlanStatus } from '../state/plan.js';
import { findRepo, findRoot } from '../state/find-root.js';
import { toRepoGlob } from '../state/repo-path.js';
import { resolveAgent } from '../state/agent-name.js';
import { readProgress, withStateLock } from '../state/store.js';
import { updateProgressLocked } from '../task/update-progress.js';
import type { BaseOptions, Marker, PlanItem, Progress } from '../types.js';
import { openListRecords, seedListRecord } from './list-check.js';
import { markerFileCount, markerFiles, storeMarkerFiles, sweepMarkerLists } from './marker-list.js';
import { plural } from '../text/plural.js';

export interface MarkDoneOptions extends BaseOptions {
  /** Globs or paths of the files the step produced, relative to `cwd` (like git pathspecs). */
  files?: readonly string[];
  /** Record the marker's files again: its globs matched anew (a 0.1.0 marker: the same files). */
  refresh?: boolean;
  /** How the step was finished. */
  note?: string;
  /** Mark it done although another agent holds a live claim on it. */
  force?: boolean;
}

export interface MarkDoneResult {
  id: string;
  marker: Marker;
  item: PlanItem;
  /** Whether a marker for this id was replaced. */
  replaced: boolean;
  /** How many files the marker covers. */
  files: number;
  revision: number;
}

/** Hashes `paths` (root-relative files); a file that is no longer a regular file is left out. */
function hashPaths(root: string, paths: readonly string[]): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const path of paths) {
    const state = hashFile(join(root, path));
    // A symlink is hashed by its link text; a file removed meanwhile is simply not recorded.
    if (state !== null && state.startsWith('sha256:')) hashes[path] = state;
  }
  return hashes;
}

/** Hashes the files matched by root-relative `globs` (every glob must match). */
export function hashMatchedFiles(
  root: string,
  globs: readonly string[],
  git: boolean,
  env?: NodeJS.ProcessEnv,
): Record<string, string> {
  const { files, unmatched } = resolveGlobs(root, globs, { git, env });
  if (unmatched.length > 0)
    throw new UsageError(`no file matches ${unmatched.map((g) => `"${g}"`).join(', ')}`, {
      hint: 'globs are relative to the current directory and match files git tracks or sees as untracked (not ignored, not under .agent/ or .git/)',
    });
  return hashPaths(root, files);
}

// What `--refresh` records again: the marker's globs, or the files of a marker without globs.
function refreshed(paths: StatePaths, id: string, git: boolean, env?: NodeJS.ProcessEnv) {
  const marker = valueOrThrow(readProgress(paths)).markers?.[id];
  const list = marker && markerFiles(paths, id, marker);
  const files = typeof list === 'object' ? list : undefined;
  if (!marker || (!marker.globs?.length && !files))
    throw new UsageError(`${id} has no completion marker with files to record again`, {
      hint: `record its files: agent-state done ${id} --files GLOB...`,
    });
  if (marker.globs?.length)
    return { globs: marker.globs, files: hashMatchedFiles(paths.root, marker.globs, git, env) };
  const hashes = hashPaths(paths.root, Object.keys(files!));
  const gone = Object.keys(files!).filter((path) => !(path in hashes));
  const more = gone.length > 1 ? ` (and ${gone.length - 1} more)` : '';
  if (gone.length > 0)
    throw new UsageError(`${id}'s file ${gone[0]} is gone${more}`, {
      hint: `record the step's files as they are now: agent-state done ${id} --files GLOB..., or withdraw the marker: agent-state undone ${id}`,
    });
  return { globs: undefined, files: hashes };
}

/**
 * Marks plan item `id` done with a completion marker; replaces an earlier marker of the same id,
 * but never with one without files (that is refused: `refresh` records the same files again).
 */
export async function markDone(id: string, options: MarkDoneOptions = {}): Promise<MarkDoneResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { paths, gitRoot } = findRepo(cwd);
  const git = gitRoot !== null;
  const note = options.note?.trim();
  const hint = `agent-state done ${id} --refresh, or agent-state done ${id} --files GLOB... to record others`;
  const both = '--refresh records the files the marker already names: leave out --files';
  if (options.refresh && options.files?.length) throw new UsageError(both, { hint });
  // Hashing happens before taking the lock: the lock is held only for the writes.
  const globs = options.files?.map((glob) => toRepoGlob(paths.root, cwd, glob));
  const recorded = options.refresh
    ? refreshed(paths, id, git, options.env)
    : { globs, files: globs?.length ? hashMatchedFiles(paths.root, globs, git, options.env) : {} };
  const commit = git ? readHead(paths.root, options.env) : null;
  const at = (options.now ?? (() => new Date()))().toISOString();
  const agent = resolveAgent(options);
  const count = Object.keys(recorded.files).length;
  const record = (p: Progress) => {
    const previous = p.markers?.[id];
    const before = previous ? markerFileCount(previous) : 0;
    if (count === 0 && before > 0)
      throw new UsageError(
        `${id} already has a completion marker over ${plural(before, 'file')}: done without files would empty it`,
        {
          hint: `record the same files again: agent-state done ${id} --refresh; others: --files GLOB...; withdraw it: agent-state undone ${id}`,
        },
      );
    const item = setPlanStatus(p, id, 'done');
    const marker: Marker = { at, ...storeMarkerFiles(paths, id, recorded.files), commit };
    if (recorded.globs?.length) marker.globs = recorded.globs;
    const last = p.stamp?.last_test;
    if (last) {
      const { command, exit_code, passed, failed } = last;
      marker.tests = { command, exit_code, passed, failed };
    }
    if (note) marker.note = note;
    if (agent !== null) marker.agent = agent;
    (p.markers ??= {})[id] = marker;
    return { item: { ...item }, marker, replaced: previous !== undefined };
  };
  const locked = async () => {
    try {
      return await updateProgressLocked(paths, record, { ...options, agent });
    } finally {
      // The list written for a marker that was not recorded goes again (never one in use).
      const stored = readProgress(paths).value;
      if (stored) sweepMarkerLists(paths, stored.markers ?? {}, options.env);
    }
  };
  const { result, progress } = await withStateLock(paths, locked, options);
  if (result.marker.file_list && gitRoot !== null) {
    const records = openListRecords(paths.logDir);
    const snapshot = await readGitSnapshot(paths.root, gitRoot, options.env);
    const ctx = { paths, snapshot, records, inside: () => true, env: options.env };
    seedListRecord(ctx, id, result.marker.file_list.sha256, recorded.files);
    records.save();
  }
  return { id, ...result, files: count, revision: progress.revision };
}

export interface MarkUndoneResult {
  id: string;
  /** Whether a marker existed and was removed. */
  removed: boolean;
  /** The plan item after the change (put back to pending when it was done), or null. */
  item: PlanItem | null;
  revision: number;
}

/** Removes the marker of `id`; a plan item that was `done` goes back to `pending`. */
export async function markUndone(
  id: string,
  options: BaseOptions & { force?: boolean } = {},
): Promise<MarkUndoneResult> {
  const paths = findRoot(options.cwd);
  const withdraw = (p: Progress) => {
    const removed = p.markers !== undefined && id in p.markers;
    if (removed) delete p.markers![id];
    const item = p.plan?.find((i) => i.id === id) ?? null;
    if (item && item.status === 'done') item.status = 'pending';
    return { removed, item: item ? { ...item } : null };
  };
  const locked = async () => {
    const update = await updateProgressLocked(paths, withdraw, options);
    sweepMarkerLists(paths, update.progress.markers ?? {}, options.env);
    return update;
  };
  const { result, progress } = await withStateLock(paths, locked, options);
  return { id, ...result, revision: progress.revision };
}
