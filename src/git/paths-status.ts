// git's answer for a few named paths only (fast on any tree): which of them differ from HEAD or
// are untracked now, and which commits between two points changed them. The status bar asks this
// for Forbidden paths the agent touched, so a reverted one stops being reported.
import { runGit, splitNul } from './exec-git.js';
import { gitPrefix, STATUS, toSnapshot } from './snapshot.js';
import { parseStatusV2 } from './status.js';

// Why: the fingerprint's status flags, limited by a pathspec; `--` keeps a path that starts with a
// dash a path; :(literal) keeps glob characters in names literal.
const literal = (path: string) => `:(literal)${path}`;

/** Of `paths` (relative to the state root), those that differ from HEAD or are untracked now. */
export function changedPaths(
  root: string,
  gitRoot: string,
  paths: readonly string[],
  env?: NodeJS.ProcessEnv,
): Set<string> {
  if (paths.length === 0) return new Set();
  const result = runGit([...STATUS, '--', ...paths.map(literal)], { cwd: root, env });
  const status = parseStatusV2(splitNul(result.stdout));
  const { changed, untracked } = toSnapshot(status, gitPrefix(root, gitRoot));
  return new Set([...changed.map((c) => c.path), ...untracked]);
}

/** Paths (of `paths`, if given) that differ between two commits; null: a commit is unknown. */
export function pathsChangedBetween(
  root: string,
  from: string,
  to: string,
  env?: NodeJS.ProcessEnv,
  paths?: readonly string[],
): string[] | null {
  const args = ['diff', '--name-only', '-z', '--no-renames', '--relative', from, to];
  if (paths) args.push('--', ...paths.map(literal));
  const result = runGit(args, { cwd: root, env, allowFailure: true });
  return result.status === 0 ? splitNul(result.stdout) : null;
}
