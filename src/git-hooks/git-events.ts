// `hook post-checkout` / `hook post-merge`: a branch switch or a merge becomes an event in the
// task's event log (.agent/log/events.jsonl, local and git-ignored), so the next boot can see the
// drift. Never progress.yaml: a post-checkout hook that rewrote a committed file would leave the
// tree dirty after every checkout and make the next checkout or rebase step refuse to run.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordEvent } from '../events/append.js';
import type { AgentEvent, EventInput } from '../events/types.js';
import { currentBranch } from '../git/git-hook-calls.js';
import { readHead } from '../git/head.js';
import { locateRoot } from '../state/find-root.js';
import { statePaths } from '../state/paths.js';
import type { BaseOptions, Warning } from '../types.js';

/** What a post-checkout or post-merge hook did. */
export interface GitEventResult {
  /** The event as written, or null. */
  recorded: AgentEvent | null;
  /** Why nothing was recorded on purpose (AGENT_STATE=0, no .agent/, a file checkout), or null. */
  skipped: string | null;
  /** Why the event could not be written (the log is busy or unwritable), or null. */
  warning: Warning | null;
}

const NULL_COMMIT = /^0+$/;
const skip = (skipped: string): GitEventResult => ({ recorded: null, skipped, warning: null });

// Records the event `input` makes of the repository (a string: why nothing is recorded).
async function recordGit(
  options: BaseOptions,
  input: (gitRoot: string, env: NodeJS.ProcessEnv) => EventInput | string,
): Promise<GitEventResult> {
  const env = options.env ?? process.env;
  if (env.AGENT_STATE === '0') return skip('AGENT_STATE=0');
  const info = locateRoot(options.cwd ?? process.cwd());
  if (!info.initialized) return skip('no .agent/ directory');
  if (info.gitRoot === null) return skip('not a git repository');
  const event = input(info.gitRoot, env);
  if (typeof event === 'string') return skip(event);
  const { event: recorded, warning } = await recordEvent(statePaths(info.root), event, options);
  return { recorded, skipped: null, warning };
}

// A rebase checks its base out detached, then moves the branch with no checkout of its own: that
// first checkout is one of its steps, and recorded as a switch it would name a detached HEAD
// that no longer is (the rebased branch's own switch was recorded before it).
function rebasing(gitRoot: string): boolean {
  let dir = join(gitRoot, '.git');
  try {
    const link = /^gitdir: (.+)$/m.exec(readFileSync(dir, 'utf8')); // a linked worktree's .git file
    if (link) dir = resolve(gitRoot, link[1]!.trim());
  } catch {
    // .git is the directory itself
  }
  return existsSync(join(dir, 'rebase-merge')) || existsSync(join(dir, 'rebase-apply'));
}

const commit = (sha: string | undefined) => (sha && !NULL_COMMIT.test(sha) ? sha : null);

/**
 * Records a branch switch as a `git.checkout` event { from, to, branch }. `args` are git's
 * (previous HEAD, new HEAD, 1 for a branch checkout); without them, the pre-commit framework's
 * PRE_COMMIT_FROM_REF / TO_REF / CHECKOUT_TYPE. A file checkout (flag 0) records nothing.
 */
export function recordCheckout(
  args: readonly string[],
  options: BaseOptions = {},
): Promise<GitEventResult> {
  return recordGit(options, (gitRoot, env) => {
    const [from, to, flag] =
      args.length > 0
        ? args
        : [env.PRE_COMMIT_FROM_REF, env.PRE_COMMIT_TO_REF, env.PRE_COMMIT_CHECKOUT_TYPE];
    if (flag === '0') return 'a file checkout, not a branch switch';
    if (rebasing(gitRoot)) return "a rebase's own checkout, not a branch switch";
    const branch = currentBranch(gitRoot, { env });
    return { type: 'git.checkout', from: commit(from), to: commit(to), branch };
  });
}

/** Records a merge as a `git.merge` event { head, branch, squash } (`args[0]` 1: a squash merge). */
export function recordMerge(
  args: readonly string[],
  options: BaseOptions = {},
): Promise<GitEventResult> {
  return recordGit(options, (gitRoot, env) => {
    const squash = (args[0] ?? env.PRE_COMMIT_IS_SQUASH_MERGE) === '1';
    const head = readHead(gitRoot, env);
    return { type: 'git.merge', head, branch: currentBranch(gitRoot, { env }), squash };
  });
}
