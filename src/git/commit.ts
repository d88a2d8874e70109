// Committing the agent state (checkpoint --commit) without touching anything else the user staged.
import { runGit } from './exec-git.js';
import { readHead } from './head.js';

/**
 * Stages `paths` (additions and deletions) and commits exactly them with `message`; other staged
 * changes stay staged and out of the commit. Returns the new commit id.
 */
export function commitPaths(
  root: string,
  paths: readonly string[],
  message: string,
  env?: NodeJS.ProcessEnv,
): string {
  // Why: -A stages deletions too (pruned evidence entries); --literal-pathspecs keeps the paths
  // literal; `commit -- paths` (the --only mode) leaves the user's other staged changes alone.
  runGit(['--literal-pathspecs', 'add', '-A', '--', ...paths], { cwd: root, env });
  runGit(['--literal-pathspecs', 'commit', '-q', '-m', message, '--', ...paths], {
    cwd: root,
    env,
  });
  return readHead(root, env) ?? '';
}
