// The worktrees of a repository (`git worktree list`): where each is checked out and on which
// branch, for the views that span every agent of a repository (status --all, the boot's others,
// claims across worktrees).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isGitUnavailable, runGit } from './exec-git.js';

/** One worktree of the repository. */
export interface Worktree {
  /** Its top directory (absolute). */
  path: string;
  /** The commit checked out; null before the first commit. */
  head: string | null;
  /** The branch's short name; null when detached (or bare). */
  branch: string | null;
  /** The repository's first worktree (the one `git worktree add` was run from, usually). */
  main: boolean;
  /** A bare repository's entry: no files checked out. */
  bare: boolean;
}

// -z: NUL after each field and an empty field between worktrees, so any path reads verbatim.
const WORKTREE_LIST = ['worktree', 'list', '--porcelain', '-z'];

/** The repository's worktrees, the main one first; empty outside git or when git is missing. */
export function listWorktrees(cwd: string, env?: NodeJS.ProcessEnv): Worktree[] {
  let stdout: Buffer;
  try {
    const result = runGit(WORKTREE_LIST, { cwd, env, allowFailure: true });
    if (result.status !== 0) return [];
    stdout = result.stdout;
  } catch (error) {
    if (isGitUnavailable(error)) return [];
    throw error;
  }
  const worktrees: Worktree[] = [];
  let current: Worktree | null = null;
  for (const field of stdout.toString('utf8').split('\0')) {
    if (field === '') {
      current = null;
      continue;
    }
    const [, key, value = ''] = /^(\S*)(?: (.*))?$/s.exec(field)!;
    if (key === 'worktree') {
      current = { path: value, head: null, branch: null, main: !worktrees.length, bare: false };
      worktrees.push(current);
    } else if (current && key === 'HEAD') current.head = /^0+$/.test(value) ? null : value;
    else if (current && key === 'branch') current.branch = value.replace(/^refs\/heads\//, '');
    else if (current && key === 'bare') current.bare = true;
  }
  return worktrees;
}

/**
 * Whether the repository of `root` (a work tree's top) has linked worktrees, read from git's
 * directory layout without running git: a linked worktree's `.git` is a file, and a main one
 * lists its linked worktrees under `.git/worktrees/`. Lets single-worktree repositories skip
 * `git worktree list` on hot paths.
 */
export function hasLinkedWorktrees(root: string): boolean {
  try {
    if (!statSync(join(root, '.git')).isDirectory()) return true;
    return readdirSync(join(root, '.git', 'worktrees')).length > 0;
  } catch {
    return false;
  }
}

// The repository's own git directory, shared by all its worktrees.
const COMMON_DIR = ['rev-parse', '--path-format=absolute', '--git-common-dir'];

/** The git directory all worktrees of the repository share (absolute); null outside git. */
export function gitCommonDir(cwd: string, env?: NodeJS.ProcessEnv): string | null {
  const result = runGit(COMMON_DIR, { cwd, env, allowFailure: true });
  return result.status === 0 ? result.stdout.toString('utf8').trim() || null : null;
}
