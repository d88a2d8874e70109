// Committing the agent state (checkpoint --commit) without touching anything else the user staged.
import { runGit } from './exec-git.js';
import { readHead } from './head.js';

/** Stages and commits exactly `paths` (deletions too), leaving other staged changes; the new id. */
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
