// What happened between two commits: the commits (with subjects and files) and the files whose
// content differs, for the drift report; what is stashed; and HEAD's reflog in this worktree, which
// tells a commit made here (`commit: …`) from work brought in or replaced (`pull: …`, `merge …`,
// `checkout: …`, `reset: …`, `rebase …`): the drift calls a change the agent's own or another's.
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
const FILES = ['--name-only', '--no-renames', '--relative'];
const LOG_ARGS = ['log', '-z', `--format=${RECORD}%H${UNIT}%s`, ...FILES];
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

/** The content of `path` (relative to `root`) at commit `rev`; null when it is not there. */
export function readBlob(
  root: string,
  rev: string,
  path: string,
  env?: NodeJS.ProcessEnv,
): Buffer | null {
  const args = ['cat-file', 'blob', `${rev}:./${path}`];
  const result = runGit(args, { cwd: root, env, allowFailure: true });
  return result.status === 0 ? result.stdout : null;
}

/** Parses the output of LOG_ARGS. */
export function parseLog(stdout: string): CommitInfo[] {
  const commits: CommitInfo[] = [];
  for (const chunk of stdout.split(RECORD)) {
    if (chunk === '') continue;
    const [header = '', ...rest] = chunk.split('\0');
    const unit = header.indexOf(UNIT);
    const files = rest.map((f, i) => (i === 0 ? f.replace(/^\n/, '') : f)).filter((f) => f !== '');
    commits.push({ sha: header.slice(0, unit), subject: header.slice(unit + 1), files });
  }
  return commits;
}

/**
 * The history from `from` to `to` (default HEAD), or null when `from` is not in this repository;
 * `from` null (a checkpoint taken before the first commit): every commit reachable from `to` is new.
 */
export async function readHistory(
  root: string,
  from: string | null,
  to = 'HEAD',
  env?: NodeJS.ProcessEnv,
): Promise<History | null> {
  if (from === null) {
    const log = await runGitAsync([...LOG_ARGS, to], { cwd: root, env });
    const commits = parseLog(log.stdout.toString('utf8'));
    const files = new Set(commits.flatMap((c) => c.files));
    return { commits, dropped: 0, changes: [...files].map((path) => ({ path, change: 'added' })) };
  }
  // `from` may have been garbage-collected.
  const exists = ['cat-file', '-e', `${from}^{commit}`];
  if (runGit(exists, { cwd: root, env, allowFailure: true }).status !== 0) return null;
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

/** The stash entries that change `paths`; [] without a stash (in a main worktree: told without git, by no refs/stash reflog). */
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
  const stashes = parseLog(result.stdout.toString('utf8'));
  return stashes.map(({ sha: ref, subject, files }) => ({ ref, subject, files }));
}

/** One move of HEAD. */
export interface ReflogEntry {
  /** The commit HEAD pointed at after the move. */
  sha: string;
  /** When HEAD moved (ms since the epoch; the reflog keeps whole seconds). */
  at: number;
  /** The reflog's own words: `commit: Add x`, `pull: Fast-forward`, ... */
  subject: string;
}

// Why: --date=unix makes %gd `HEAD@{<seconds>}`, the time of the move itself (not of the commit);
// a unit separator keeps subjects with any punctuation intact; HEAD's reflog is per worktree.
const REFLOG_ARGS = ['reflog', 'show', '--date=unix', `--format=%H${UNIT}%gd${UNIT}%gs`];

/** HEAD's moves since `sinceMs`, newest first (at most `max`); null: no reflog (no commits yet). */
export function readReflog(
  root: string,
  sinceMs: number,
  env?: NodeJS.ProcessEnv,
  max = 500,
): ReflogEntry[] | null {
  const args = [...REFLOG_ARGS, `-n${max}`, 'HEAD', '--'];
  const result = runGit(args, { cwd: root, env, allowFailure: true });
  if (result.status !== 0) return null;
  // Whole seconds: a move in the checkpoint's own second counts as after it.
  const since = Math.floor(sinceMs / 1000) * 1000;
  const entries: ReflogEntry[] = [];
  for (const line of result.stdout.toString('utf8').split('\n')) {
    const [sha, selector, subject] = line.split(UNIT);
    const seconds = /\{(\d+)\}$/.exec(selector ?? '')?.[1];
    if (!sha || seconds === undefined || subject === undefined) continue;
    const at = Number(seconds) * 1000;
    if (at >= since) entries.push({ sha, at, subject });
  }
  return entries;
}
