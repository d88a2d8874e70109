// HEAD's reflog in this worktree: what moved HEAD and when. It tells a commit made here
// (`commit: …`, `commit (amend): …`) from work brought in or replaced (`pull: …`, `merge …`,
// `checkout: moving from … to …`, `reset: …`, `rebase …`), which the drift needs to call a
// change the agent's own or someone else's.
import { runGit } from './exec-git.js';

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
const UNIT = '\x1f';
const REFLOG_ARGS = ['reflog', 'show', '--date=unix', `--format=%H${UNIT}%gd${UNIT}%gs`];

/** Parses the output of REFLOG_ARGS. */
export function parseReflog(stdout: string): ReflogEntry[] {
  const entries: ReflogEntry[] = [];
  for (const line of stdout.split('\n')) {
    const [sha, selector, subject] = line.split(UNIT);
    const seconds = /\{(\d+)\}$/.exec(selector ?? '')?.[1];
    if (!sha || seconds === undefined || subject === undefined) continue;
    entries.push({ sha, at: Number(seconds) * 1000, subject });
  }
  return entries;
}

/**
 * The moves of HEAD since `sinceMs`, newest first (at most `max`); null when there is no reflog
 * to read (a repository without commits, core.logAllRefUpdates off).
 */
export function readReflog(
  root: string,
  sinceMs: number,
  env?: NodeJS.ProcessEnv,
  max = 500,
): ReflogEntry[] | null {
  const result = runGit([...REFLOG_ARGS, `-n${max}`, 'HEAD', '--'], {
    cwd: root,
    env,
    allowFailure: true,
  });
  if (result.status !== 0) return null;
  // Whole seconds: a move in the checkpoint's own second counts as after it.
  const since = Math.floor(sinceMs / 1000) * 1000;
  return parseReflog(result.stdout.toString('utf8')).filter((entry) => entry.at >= since);
}
