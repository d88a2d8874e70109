// What happened between two commits: the commits (with subjects and files) and the files whose
// content differs, for the drift report.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runGit, runGitAsync, splitNul } from './exec-git.js';

/** One commit of the history between a checkpoint and now. */
export interface CommitInfo {
  sha: string;
  subject: string;
  /** Files the commit touched, relative to the state root (paths outside it are left out). */
  files: string[];
}

/** How a file differs between two commits, in git's words (a rename names where it came from). */
export interface PathChange {
  path: string;
  change: 'modified' | 'added' | 'deleted' | 'renamed';
  from?: string;
}

/** The history from a recorded HEAD to the current one. */
export interface History {
  /** Commits reachable from the current HEAD and not from the recorded one, newest first. */
  commits: CommitInfo[];
  /** Commits reachable from the recorded HEAD that the current one no longer contains (a reset or a branch switch). */
  dropped: number;
  /** Files whose content differs between the two commits, relative to the state root. */
  changes: PathChange[];
}

// Why: a record separator before each commit and a unit separator between hash and subject keep
// the parse unambiguous; --name-only -z lists the files NUL-separated; --relative limits the
// paths to the state root (a subdirectory of a monorepo) and makes them relative to it.
const RECORD = '\x1e';
const UNIT = '\x1f';
const LOG_ARGS = [
  'log',
  '-z',
  `--format=${RECORD}%H${UNIT}%s`,
  '--name-only',
  '--no-renames',
  '--relative',
];
// --name-status -M: added, deleted and renamed as git says (a rename is `R<score>\0old\0new`).
const DIFF_ARGS = ['diff', '--name-status', '-z', '-M', '--relative'];
const KINDS: Record<string, PathChange['change']> = { A: 'added', D: 'deleted', R: 'renamed' };

/** Parses the output of DIFF_ARGS. */
export function parseNameStatus(stdout: Buffer): PathChange[] {
  const fields = splitNul(stdout);
  const changes: PathChange[] = [];
  for (let i = 0; i < fields.length; i++) {
    const change = KINDS[fields[i]!.charAt(0)] ?? 'modified';
    if (change === 'renamed') {
      changes.push({ path: fields[i + 2]!, change, from: fields[i + 1]! });
      i += 2;
    } else changes.push({ path: fields[++i]!, change });
  }
  return changes;
}

/** Whether `sha` names a commit in this repository (it may have been garbage-collected). */
export function commitExists(root: string, sha: string, env?: NodeJS.ProcessEnv): boolean {
  return (
    runGit(['cat-file', '-e', `${sha}^{commit}`], { cwd: root, env, allowFailure: true }).status ===
    0
  );
}

/** The content of `path` (relative to `root`) at commit `rev`; null when it is not there. */
export function readBlob(
  root: string,
  rev: string,
  path: string,
  env?: NodeJS.ProcessEnv,
): Buffer | null {
  const result = runGit(['cat-file', 'blob', `${rev}:./${path}`], {
    cwd: root,
    env,
    allowFailure: true,
  });
  return result.status === 0 ? result.stdout : null;
}

/** Parses the output of LOG_ARGS. */
export function parseLog(stdout: string): CommitInfo[] {
  const commits: CommitInfo[] = [];
  for (const chunk of stdout.split(RECORD)) {
    if (chunk === '') continue;
    const headerEnd = chunk.indexOf('\0');
    const header = headerEnd === -1 ? chunk : chunk.slice(0, headerEnd);
    const unit = header.indexOf(UNIT);
    const files =
      headerEnd === -1
        ? []
        : chunk
            .slice(headerEnd + 1)
            .replace(/^\n/, '')
            .split('\0')
            .filter((f) => f !== '');
    commits.push({ sha: header.slice(0, unit), subject: header.slice(unit + 1), files });
  }
  return commits;
}

/** Every commit reachable from `to`, newest first (a checkpoint taken before the first commit). */
export async function readLog(
  root: string,
  to: string,
  env?: NodeJS.ProcessEnv,
): Promise<CommitInfo[]> {
  const log = await runGitAsync([...LOG_ARGS, to], { cwd: root, env });
  return parseLog(log.stdout.toString('utf8'));
}

/** The history from `from` to `to` (default HEAD), or null when `from` is not in this repository. */
export async function readHistory(
  root: string,
  from: string,
  to = 'HEAD',
  env?: NodeJS.ProcessEnv,
): Promise<History | null> {
  if (!commitExists(root, from, env)) return null;
  const [log, dropped, diff] = await Promise.all([
    runGitAsync([...LOG_ARGS, `${from}..${to}`], { cwd: root, env }),
    runGitAsync(['rev-list', '--count', `${to}..${from}`], { cwd: root, env }),
    runGitAsync([...DIFF_ARGS, from, to], { cwd: root, env }),
  ]);
  return {
    commits: parseLog(log.stdout.toString('utf8')),
    dropped: Number(dropped.stdout.toString('utf8').trim()) || 0,
    changes: parseNameStatus(diff.stdout),
  };
}

/** A stash entry that holds changes to some of the paths asked about. */
export interface StashedChange {
  /** `stash@{0}`, newest first. */
  ref: string;
  subject: string;
  /** The paths it changes, relative to the state root. */
  files: string[];
}

// Why: -g walks the stash's reflog (every entry, not only the newest); -m --first-parent compares
// each entry with the commit it was made on, so the pathspec keeps only entries that change it.
const STASH_ARGS = ['log', '-g', '-m', '--first-parent', '-z', `--format=${RECORD}%gd${UNIT}%s`];

/**
 * The stash entries that change `paths` (relative to `root`); [] when there is no stash (told
 * without running git in a main worktree: no reflog of refs/stash).
 */
export function readStashed(
  root: string,
  gitRoot: string,
  paths: readonly string[],
  env?: NodeJS.ProcessEnv,
): StashedChange[] {
  try {
    const dir = join(gitRoot, '.git');
    if (statSync(dir).isDirectory() && !existsSync(join(dir, 'logs', 'refs', 'stash'))) return [];
  } catch {
    return [];
  }
  const args = [...STASH_ARGS, '--name-only', '--relative', 'refs/stash', '--', ...paths];
  const result = runGit(args, { cwd: root, env, allowFailure: true });
  if (result.status !== 0) return [];
  return parseLog(result.stdout.toString('utf8')).map((c) => ({
    ref: c.sha,
    subject: c.subject,
    files: c.files,
  }));
}
