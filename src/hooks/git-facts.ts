// `hook post-checkout` / `hook post-merge` and `watch`: facts about the repository recorded in a
// local, git-ignored log (.agent/log/facts.jsonl), so the next boot can see the drift.
// Not progress.yaml: a post-checkout hook that rewrote a committed file would leave the tree dirty
// after every checkout and make the next checkout or rebase step refuse to run.
// TODO(events): append to .agent/log/events.jsonl through src/events once the event log exists.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { currentBranch, headCommit } from '../git/hooks-git.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { locateRoot } from '../state/find-root.js';
import { statePaths, type StatePaths } from '../state/paths.js';
import type { BaseOptions } from '../types.js';

/** One recorded fact. Times are ISO 8601 UTC. */
export type RepoFact =
  | { kind: 'checkout'; at: string; from: string | null; to: string | null; branch: string | null }
  | { kind: 'merge'; at: string; head: string | null; branch: string | null; squash: boolean }
  | {
      kind: 'file';
      at: string;
      event: 'add' | 'change' | 'unlink';
      path: string;
      forbidden: boolean;
    };

/** The log's file name under .agent/log/. */
export const FACTS_FILE = 'facts.jsonl';
// Past this size the log keeps only its newest half (it is a recent-history aid, not an archive).
const MAX_LOG_BYTES = 512 * 1024;
const NULL_COMMIT = /^0+$/;

/** The log's absolute path. */
export function factsPath(paths: StatePaths): string {
  return join(paths.logDir, FACTS_FILE);
}

/** Appends one fact: one write on an O_APPEND descriptor, so concurrent writers never interleave. */
export function appendFact(paths: StatePaths, fact: RepoFact): void {
  const path = factsPath(paths);
  mkdirSync(paths.logDir, { recursive: true });
  const fd = openSync(path, 'a', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(fact)}\n`);
  } finally {
    closeSync(fd);
  }
  if (statSync(path).size > MAX_LOG_BYTES) {
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileAtomic(path, `${lines.slice(Math.floor(lines.length / 2)).join('\n')}\n`);
  }
}

/** The recorded facts, oldest first (a torn or foreign line is skipped). */
export function readFacts(paths: StatePaths): RepoFact[] {
  let text: string;
  try {
    text = readFileSync(factsPath(paths), 'utf8');
  } catch {
    return [];
  }
  const facts: RepoFact[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as RepoFact;
      if (value && typeof value === 'object' && typeof value.kind === 'string') facts.push(value);
    } catch {
      /* a torn last line from a crashed writer */
    }
  }
  return facts;
}

/** What a post-checkout or post-merge hook did. */
export interface FactResult {
  recorded: RepoFact | null;
  /** Why nothing was recorded, or null. */
  skipped: string | null;
}

function stateOf(options: BaseOptions): { paths: StatePaths; gitRoot: string } | string {
  const env = options.env ?? process.env;
  if (env.AGENT_STATE === '0') return 'AGENT_STATE=0';
  const info = locateRoot(options.cwd ?? process.cwd());
  if (!info.initialized) return 'no .agent/ directory';
  if (info.gitRoot === null) return 'not a git repository';
  return { paths: statePaths(info.root), gitRoot: info.gitRoot };
}

const nowIso = (options: BaseOptions) => (options.now ?? (() => new Date()))().toISOString();

/**
 * Records a branch switch. `args` are git's (previous HEAD, new HEAD, 1 for a branch checkout);
 * without them, the pre-commit framework's PRE_COMMIT_FROM_REF/TO_REF/CHECKOUT_TYPE are used.
 * A file checkout (flag 0) records nothing.
 */
export function recordCheckout(args: readonly string[], options: BaseOptions = {}): FactResult {
  const state = stateOf(options);
  if (typeof state === 'string') return { recorded: null, skipped: state };
  const env = options.env ?? process.env;
  const [from, to, flag] =
    args.length > 0
      ? args
      : [env.PRE_COMMIT_FROM_REF, env.PRE_COMMIT_TO_REF, env.PRE_COMMIT_CHECKOUT_TYPE];
  if (flag === '0') return { recorded: null, skipped: 'a file checkout, not a branch switch' };
  const fact: RepoFact = {
    kind: 'checkout',
    at: nowIso(options),
    from: from && !NULL_COMMIT.test(from) ? from : null,
    to: to && !NULL_COMMIT.test(to) ? to : null,
    branch: currentBranch(state.gitRoot, { env }),
  };
  appendFact(state.paths, fact);
  return { recorded: fact, skipped: null };
}

/** Records a merge (`args[0]` is 1 for a squash merge, as git passes it). */
export function recordMerge(args: readonly string[], options: BaseOptions = {}): FactResult {
  const state = stateOf(options);
  if (typeof state === 'string') return { recorded: null, skipped: state };
  const env = options.env ?? process.env;
  const squash = (args[0] ?? env.PRE_COMMIT_IS_SQUASH_MERGE) === '1';
  const fact: RepoFact = {
    kind: 'merge',
    at: nowIso(options),
    head: headCommit(state.gitRoot, { env }),
    branch: currentBranch(state.gitRoot, { env }),
    squash,
  };
  appendFact(state.paths, fact);
  return { recorded: fact, skipped: null };
}
