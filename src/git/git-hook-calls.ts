// The git calls of the hooks and of watch, through exec-git.ts. Every call is synchronous: a hook
// runs a handful of them and must not pay for an event loop round trip. Their errors are usage
// errors: a hook or `hooks install` run outside a repository is the user's mistake to fix.
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { isGitUnavailable, runGit, type GitOutput, type GitRunOptions } from './exec-git.js';

/** One staged change: its path (POSIX, relative to the work tree top) and git's status letter. */
export interface StagedChange {
  path: string;
  /** A added, M modified, D deleted, T type changed, U unmerged, C/X/B as git reports them. */
  status: string;
}

type GitOptions = Pick<GitRunOptions, 'env' | 'input'>;

// Staged paths with their status; -z keeps unusual file names verbatim, --no-renames reports a
// rename as a deletion plus an addition so a file moved out of a Forbidden directory is seen.
const DIFF_CACHED = ['diff', '--cached', '--name-status', '-z', '--no-renames', '--no-ext-diff'];
// The directory holding HEAD and index for this work tree (a linked worktree has its own).
const ABSOLUTE_GIT_DIR = ['rev-parse', '--absolute-git-dir'];
// Blobs by `:path` (the index stage 0), several per spawn; one spawn reads the index once.
const CAT_FILE_BATCH = ['cat-file', '--batch'];
// The short branch name, or nothing on a detached HEAD (-q: no error message for that case).
const SYMBOLIC_REF = ['symbolic-ref', '--short', '-q', 'HEAD'];
// Tracked paths matching pathspecs; -z for verbatim names.
const LS_FILES = ['ls-files', '-z', '--'];

// Read-only: exec-git sets GIT_OPTIONAL_LOCKS=0, so no call takes .git/index.lock (during a
// pre-commit hook git itself holds it).
function runHookGit(cwd: string, args: readonly string[], options: GitOptions = {}): GitOutput {
  try {
    return runGit(args, { cwd, env: options.env, input: options.input, allowFailure: true });
  } catch (error) {
    if (isGitUnavailable(error))
      throw new UsageError('git was not found on PATH', { hint: 'install git, or add it to PATH' });
    throw error;
  }
}

// A failing git call is nearly always "not a repository"; say so instead of echoing git.
function failed(cwd: string, args: readonly string[], stderr: string): UsageError {
  const first = stderr.trim().split('\n')[0] ?? '';
  if (/not a git repository/i.test(first))
    return new UsageError(`${cwd} is not inside a git repository`, {
      hint: 'run this in a git work tree (git init), or pass --cwd',
    });
  return new UsageError(`git ${args[0]} failed: ${first || 'no message'}`, {
    hint: 'check the repository with `git status`',
  });
}

function gitText(cwd: string, args: readonly string[], opts?: GitOptions): string {
  const result = runHookGit(cwd, args, opts);
  if (result.status !== 0) throw failed(cwd, args, result.stderr);
  return result.stdout.toString('utf8');
}

/** The absolute path of a file in git's directory (the shared one's `info/attributes`; `hooks`: where git runs hooks from). */
export function gitPath(cwd: string, path: string, opts?: GitOptions): string {
  return resolve(cwd, gitText(cwd, ['rev-parse', '--git-path', path], opts).replace(/\n$/, ''));
}

/** The default hooks directory (`<common git dir>/hooks`), whatever core.hooksPath says. */
export function gitDefaultHooksDir(cwd: string, opts?: GitOptions): string {
  const dir = gitText(cwd, ['rev-parse', '--git-common-dir'], opts).replace(/\n$/, '');
  return resolve(cwd, dir, 'hooks');
}

/** The value of a git config key, or null when it is not set. */
export function gitConfigGet(cwd: string, key: string, opts?: GitOptions): string | null {
  // `git config --get` exits 1 for an unset key: that is an answer, not a failure.
  const result = runHookGit(cwd, ['config', '--get', key], opts);
  if (result.status === 1) return null;
  if (result.status !== 0) throw failed(cwd, ['config'], result.stderr);
  return result.stdout.toString('utf8').replace(/\n$/, '');
}

/** Sets a key in the repository's own config (.git/config, shared by its worktrees). */
export function gitConfigSet(cwd: string, key: string, value: string, opts?: GitOptions): void {
  gitText(cwd, ['config', '--local', key, value], opts);
}

/** Removes a section of the repository's own config; false when there was none. */
export function gitConfigRemoveSection(cwd: string, section: string, opts?: GitOptions): boolean {
  // Exit 128 with "no such section" when it is not there: an answer, not a failure.
  const result = runHookGit(cwd, ['config', '--local', '--remove-section', section], opts);
  if (result.status === 0) return true;
  if (/no such section/i.test(result.stderr)) return false;
  throw failed(cwd, ['config'], result.stderr);
}

/** The absolute git directory of this work tree (where HEAD and index are). */
export function gitAbsoluteDir(cwd: string, opts?: GitOptions): string {
  return gitText(cwd, ABSOLUTE_GIT_DIR, opts).replace(/\n$/, '');
}

/** Every staged change (index against HEAD; against the empty tree before the first commit). */
export function stagedChanges(cwd: string, opts?: GitOptions): StagedChange[] {
  const fields = gitText(cwd, DIFF_CACHED, opts).split('\0');
  const changes: StagedChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!;
    const path = fields[i + 1]!;
    if (status === '' || path === '') break;
    changes.push({ status: status.charAt(0), path });
  }
  return changes;
}

/** Each path's staged blob (index stage 0), read in one spawn; null: none (deleted, unindexed). */
export function stagedBlobs(
  cwd: string,
  paths: readonly string[],
  opts?: GitOptions,
): Map<string, Buffer | null> {
  const blobs = new Map<string, Buffer | null>();
  // A path with a newline cannot travel through --batch's line protocol: read it on its own.
  const batchable = paths.filter((p) => !p.includes('\n'));
  for (const path of paths.filter((p) => p.includes('\n'))) {
    const single = runHookGit(cwd, ['cat-file', 'blob', `:${path}`], opts);
    blobs.set(path, single.status === 0 ? single.stdout : null);
  }
  if (batchable.length === 0) return blobs;
  const input = batchable.map((p) => `:${p}\n`).join('');
  const result = runHookGit(cwd, CAT_FILE_BATCH, { ...opts, input });
  if (result.status !== 0) throw failed(cwd, CAT_FILE_BATCH, result.stderr);
  const out = result.stdout;
  let offset = 0;
  for (const path of batchable) {
    const eol = out.indexOf(0x0a, offset);
    if (eol === -1) break;
    const header = out.subarray(offset, eol).toString('utf8');
    offset = eol + 1;
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!match) {
      blobs.set(path, null); // "<name> missing" or "ambiguous"
      continue;
    }
    const size = Number(match[2]);
    blobs.set(path, match[1] === 'blob' ? out.subarray(offset, offset + size) : null);
    offset += size + 1; // the content is followed by a newline
  }
  return blobs;
}

/** A file's content in the HEAD commit; null before the first commit or when HEAD lacks it. */
export function committedBlob(cwd: string, path: string, opts?: GitOptions): Buffer | null {
  const result = runHookGit(cwd, ['cat-file', 'blob', `HEAD:${path}`], opts);
  return result.status === 0 ? result.stdout : null;
}

/** The current branch's short name, or null on a detached HEAD. */
export function currentBranch(cwd: string, opts?: GitOptions): string | null {
  const result = runHookGit(cwd, SYMBOLIC_REF, opts);
  return result.status === 0 ? result.stdout.toString('utf8').trim() || null : null;
}

/** Tracked paths matching git pathspecs (for example `:(glob)**\/*.pem`). */
export function trackedMatching(
  cwd: string,
  pathspecs: readonly string[],
  opts?: GitOptions,
): string[] {
  if (pathspecs.length === 0) return [];
  return gitText(cwd, [...LS_FILES, ...pathspecs], opts)
    .split('\0')
    .filter((p) => p !== '');
}
