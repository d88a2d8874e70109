// `done ID --files ...`: the proof that a step is finished — the sha256 of every file it produced,
// HEAD, the last known test result — recorded together with the plan item's `done` status.
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { hashFile } from '../fingerprint/hash-file.js';
import { resolveGlobs } from '../fingerprint/resolve-globs.js';
import { readHead } from '../git/head.js';
import { setPlanStatus } from '../state/plan.js';
import { findRepo } from '../state/repo.js';
import { toRepoGlob } from '../state/repo-path.js';
import { resolveAgent } from '../state/agent-name.js';
import { updateProgress } from '../task/update-progress.js';
import type { BaseOptions, Marker, PlanItem } from '../types.js';

export interface MarkDoneOptions extends BaseOptions {
  /** Globs or paths of the files the step produced, relative to `cwd` (like git pathspecs). */
  files?: readonly string[];
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
  revision: number;
}

/** Hashes the files matched by `globs` under the repository of `cwd` (every glob must match). */
export function hashMatchedFiles(
  root: string,
  cwd: string,
  globs: readonly string[],
  git: boolean,
  env?: NodeJS.ProcessEnv,
): Record<string, string> {
  const repoGlobs = globs.map((glob) => toRepoGlob(root, cwd, glob));
  const { files, unmatched } = resolveGlobs(root, repoGlobs, { git, env });
  if (unmatched.length > 0) {
    throw new UsageError(`no file matches ${unmatched.map((g) => `"${g}"`).join(', ')}`, {
      hint: 'globs are relative to the current directory and match files git tracks or sees as untracked (not ignored, not under .agent/ or .git/)',
    });
  }
  const hashes: Record<string, string> = {};
  for (const path of files) {
    const state = hashFile(join(root, path));
    // A symlink is hashed by its link text; a file removed meanwhile is simply not recorded.
    if (state !== null && state.startsWith('sha256:')) hashes[path] = state;
  }
  return hashes;
}

/** Marks plan item `id` done with a completion marker; replaces an earlier marker of the same id. */
export async function markDone(id: string, options: MarkDoneOptions = {}): Promise<MarkDoneResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { paths, gitRoot } = findRepo(cwd);
  const note = options.note?.trim();
  // Hashing happens before taking the lock: the lock is held only for the write.
  const files = options.files?.length
    ? hashMatchedFiles(paths.root, cwd, options.files, gitRoot !== null, options.env)
    : {};
  const commit = gitRoot === null ? null : readHead(paths.root, options.env);
  const at = (options.now ?? (() => new Date()))().toISOString();
  const agent = resolveAgent(options);
  const { result, progress } = await updateProgress(
    (p) => {
      const item = setPlanStatus(p, id, 'done');
      const marker: Marker = { at, files, commit };
      const last = p.stamp?.last_test;
      if (last) {
        marker.tests = {
          command: last.command,
          exit_code: last.exit_code,
          passed: last.passed,
          failed: last.failed,
        };
      }
      if (note) marker.note = note;
      if (agent !== null) marker.agent = agent;
      const markers = (p.markers ??= {});
      const replaced = id in markers;
      markers[id] = marker;
      return { item: { ...item }, marker, replaced };
    },
    { ...options, cwd, agent },
  );
  return { id, ...result, revision: progress.revision };
}
