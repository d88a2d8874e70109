// The commit HEAD points at.
import { runGit } from './exec-git.js';

// Why: -q --verify prints nothing and exits 1 (instead of failing loudly) before the first commit.
const HEAD_ARGS = ['rev-parse', '-q', '--verify', 'HEAD^{commit}'];

/** HEAD's commit id, or null in a repository without commits. */
export function readHead(root: string, env?: NodeJS.ProcessEnv): string | null {
  const result = runGit(HEAD_ARGS, { cwd: root, env, allowFailure: true });
  const sha = result.stdout.toString('utf8').trim();
  return result.status === 0 && sha !== '' ? sha : null;
}
