// The git side of a fingerprint: HEAD, branch, upstream, ahead/behind, the tracked files that
// differ from HEAD and the untracked files, from one `git status` run.
import { relative, sep } from 'node:path';
import { runGit, runGitAsync, splitNul, type GitOutput } from './exec-git.js';
import { parseStatusV2, type GitStatus } from './status.js';

/** What git says about the work tree, with paths relative to the state root. */
export interface GitSnapshot extends Omit<GitStatus, 'entries'> {
  /** Tracked paths that differ from HEAD (staged or not), with their submodule flags (`N...` for files). */
  changed: { path: string; submodule: string }[];
  /** Untracked, not ignored paths; a nested repository is listed as `dir/`. */
  untracked: string[];
}

// Why these flags: porcelain v2 is the stable machine format; -z keeps odd file names intact;
// --branch adds head, branch, upstream and ahead/behind to the same run; --no-renames skips rename
// detection (a rename is a deletion plus an addition, which is all a fingerprint needs);
// --untracked-files=all lists each untracked file rather than its directory. One run does it all:
// a separate `ls-files --others` in parallel was measured 4× slower than alone (both walk the
// same directories) and lost overall.
export const STATUS = ['status', '--porcelain=v2', '-z', '--no-renames', '--untracked-files=all'];

/** The path of `root` inside the git work tree (`''` at the top level), POSIX-style with a slash. */
export function gitPrefix(root: string, gitRoot: string): string {
  const rel = relative(gitRoot, root).split(sep).join('/');
  return rel === '' ? '' : `${rel}/`;
}

/** A status run as a snapshot: the entries under `prefix` (gitPrefix), relative to it. */
export function toSnapshot({ entries, ...git }: GitStatus, prefix: string): GitSnapshot {
  const changed: GitSnapshot['changed'] = [];
  const untracked: string[] = [];
  for (const entry of entries) {
    if (entry.kind === 'ignored') continue;
    for (const path of entry.origPath ? [entry.path, entry.origPath] : [entry.path]) {
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      if (entry.kind === 'untracked') untracked.push(rel);
      else changed.push({ path: rel, submodule: entry.submodule });
    }
  }
  return { ...git, changed, untracked };
}

// The status run for `root`: its arguments, and how its output becomes the snapshot.
function statusCall(root: string, gitRoot: string) {
  const prefix = gitPrefix(root, gitRoot);
  // Paths come relative to the git top level; in a subdirectory root, limit the walk to it.
  const args = [...STATUS, '--branch', ...(prefix === '' ? [] : ['--', '.'])];
  return {
    args,
    snapshot: (out: GitOutput) => toSnapshot(parseStatusV2(splitNul(out.stdout)), prefix),
  };
}

// A snapshot started early (see prefetchGitSnapshot) is used only while it is this fresh.
const PREFETCH_MAX_AGE_MS = 5_000;
type Prefetched = Map<
  string,
  { started: number; env: NodeJS.ProcessEnv; promise: Promise<GitSnapshot> }
>;
const prefetched: Prefetched = new Map();

/**
 * Starts reading the snapshot of `root` now, so that git works while this process does something
 * else (loading the CLI, reading the state files); the next readGitSnapshot of the same root and
 * environment takes it over instead of running git again.
 */
export function prefetchGitSnapshot(
  root: string,
  gitRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const early = prefetched.get(root);
  if (early && early.env === env && Date.now() - early.started < PREFETCH_MAX_AGE_MS) return;
  const { args, snapshot } = statusCall(root, gitRoot);
  const promise = runGitAsync(args, { cwd: root, env }).then(snapshot);
  promise.catch(() => undefined); // whoever takes it over sees the error; nobody else must
  prefetched.set(root, { started: Date.now(), env, promise });
}

/**
 * Reads HEAD, branch, upstream, ahead/behind, changed and untracked paths of the work tree: the
 * prefetched snapshot, else a blocking run (the caller waits for it anyway, and a background
 * run's pipes and streams cost ~5 ms of CPU that only overlap pays back).
 */
export async function readGitSnapshot(
  root: string,
  gitRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GitSnapshot> {
  const early = prefetched.get(root);
  prefetched.delete(root);
  if (early && early.env === env && Date.now() - early.started < PREFETCH_MAX_AGE_MS)
    return early.promise;
  const { args, snapshot } = statusCall(root, gitRoot);
  return snapshot(runGit(args, { cwd: root, env }));
}
