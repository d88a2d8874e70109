// The state root together with the git work tree it belongs to (if any), found without git.
import { statePaths, type StatePaths } from './paths.js';
import { initializedRoot, locateRoot } from './find-root.js';

/** An initialized state root and its enclosing git top level. */
export interface Repo {
  paths: StatePaths;
  /** The git top level (a linked worktree's own directory), or null outside git. */
  gitRoot: string | null;
}

/** Finds the initialized state root for `cwd` (throws NotInitializedError) and its git top level. */
export function findRepo(cwd?: string): Repo {
  const info = locateRoot(cwd);
  return { paths: statePaths(initializedRoot(info)), gitRoot: info.gitRoot };
}
