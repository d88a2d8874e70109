// Listing the files of the work tree the way git sees them (tracked, plus untracked not ignored),
// so that globs are resolved without walking ignored trees such as node_modules.
import { runGit, splitNul } from './exec-git.js';

// Why: --cached and --others together list tracked and untracked files; --exclude-standard drops
// what .gitignore ignores; --literal-pathspecs makes the directory bases we pass plain prefixes.
const LS_FILES = ['--literal-pathspecs', 'ls-files', '-z'];
const LIST_ARGS = [...LS_FILES, '--cached', '--others', '--exclude-standard'];

/** Tracked and untracked-not-ignored files under `dirs` of `root` (all: empty or `''`); deleted tracked files too, callers check the disk. */
export function listRepoFiles(
  root: string,
  dirs: readonly string[],
  env?: NodeJS.ProcessEnv,
): string[] {
  const whole = dirs.length === 0 || dirs.includes('');
  const args = whole ? LIST_ARGS : [...LIST_ARGS, '--', ...new Set(dirs)];
  const files = splitNul(runGit(args, { cwd: root, env }).stdout);
  // Unmerged files appear once per stage.
  return [...new Set(files)];
}

/** Of `paths` (every file when null), those git tracks; paths relative to `root`. */
export function trackedFiles(
  root: string,
  paths: readonly string[] | null,
  env?: NodeJS.ProcessEnv,
): Set<string> {
  if (paths?.length === 0) return new Set();
  const args = [...LS_FILES, ...(paths ? ['--', ...paths] : [])];
  return new Set(splitNul(runGit(args, { cwd: root, env }).stdout));
}
