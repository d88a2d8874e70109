// What the words of recovery mean, in one place (pure). A *boot*: a prompt a host was handed (at
// a session start or after a confirmed compaction). *Progress*: anything that moved the task since
// the previous boot. A *restart loop*: `stall_threshold` boots in a row without progress. *Drift*
// since the last checkpoint is own (the agent's recorded edits and commits explain it), foreign
// (commits from elsewhere, a branch switch, an edit the hooks did not see) or unrecorded (no host
// hooks here). Levels, warnings and the status bar are all built on these.
import type { Drift } from '../fingerprint/diff.js';
import { hash64 } from '../text/fnv.js';
import { plural, shortList } from '../text/plural.js';
import type { FileState, Progress } from '../types.js';

/** The parts of the task whose movement counts as progress, in the order they are named. */
export const PROGRESS_PARTS = [
  'plan',
  'markers',
  'next_action',
  'stage',
  'current_step',
  'memory',
  'evidence',
  'edits',
  'commits',
] as const;

export type ProgressPart = (typeof PROGRESS_PARTS)[number];

/** A short hash per part: what a boot keeps to compare the next boot against. */
export type ProgressDigest = Record<ProgressPart, string>;

/** What the task looks like now, beyond progress.yaml. */
export interface ProgressExtras {
  /** The newest evidence id, and how many entries there are. */
  evidence: { newest: string | null; count: number };
  /** Any value that changes when the hooks record an edit (see editsMark). */
  edits: string;
  /** The commit HEAD points at; null outside git or before the first commit. */
  head: string | null;
}

const short = (value: unknown) => hash64(JSON.stringify(value) ?? '');

/** The `edits` part of a digest, alone (what the hot path after a tool call can tell cheaply). */
export const digestEdits = (mark: string): string => short(mark);

/** The digest of the task's progress now. */
export function digestProgress(progress: Progress, extras: ProgressExtras): ProgressDigest {
  const markers = Object.entries(progress.markers ?? {})
    .map(([id, marker]) => [id, marker.at])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return {
    plan: short((progress.plan ?? []).map((item) => [item.id, item.status])),
    markers: short(markers),
    next_action: short(progress.next_action ?? ''),
    stage: short(progress.stage ?? ''),
    current_step: short(progress.current_step ?? null),
    memory: short([progress.memory?.durable ?? [], progress.memory?.working ?? []]),
    evidence: short([extras.evidence.newest, extras.evidence.count]),
    edits: digestEdits(extras.edits),
    commits: short(extras.head),
  };
}

/** The parts that moved from `before` to `after` (every part when there is no `before`). */
export function progressMoved(
  before: Partial<ProgressDigest> | null,
  after: ProgressDigest,
): ProgressPart[] {
  return PROGRESS_PARTS.filter((part) => before?.[part] !== after[part]);
}

/** What the previous boot left to compare with. */
export interface LastBoot {
  at: string;
  /** The host session that was handed it (hooks know it; a CLI `boot` does not). */
  session: string | null;
  /** Boots in a row with no progress between them, that boot included. */
  stalled: number;
  progress: Partial<ProgressDigest>;
}

/** How a boot counts. */
export type BootCount = ReturnType<typeof countBoot>;

/** A CLI boot this soon after a host's boot, with nothing moved, repeats it. */
export const REPEAT_WINDOW_MS = 10 * 60 * 1000;

/** Counts a boot against the previous one; a resume keeps its conversation: no loop boot. */
// `stalled`: boots in a row with no progress between them, this one included; `moved`: what moved
// since the previous boot; `repeat`: a CLI boot right after the host's, nothing done between (one
// restart: the counter stays).
export function countBoot(
  last: LastBoot | null,
  now: { at: string; session: string | null; progress: ProgressDigest; resume?: boolean },
) {
  const moved = progressMoved(last?.progress ?? null, now.progress);
  if (now.resume)
    return { stalled: last && moved.length === 0 ? last.stalled : 0, moved, repeat: false };
  if (last === null) return { stalled: 1, moved, repeat: false };
  const elapsed = Date.parse(now.at) - Date.parse(last.at);
  const repeat =
    moved.length === 0 &&
    last.session !== null &&
    now.session === null &&
    elapsed >= 0 &&
    elapsed < REPEAT_WINDOW_MS;
  if (repeat) return { stalled: last.stalled, moved, repeat };
  return { stalled: moved.length > 0 ? 1 : last.stalled + 1, moved, repeat };
}

/** Whether `stalled` boots in a row without progress make a restart loop. */
export function inRestartLoop(stalled: number, threshold: number): boolean {
  return stalled >= threshold;
}

/** Whether the last boot's restart loop holds: nothing moved since (progress ends it at once). */
export function loopHolds(
  last: LastBoot | null,
  progressNow: ProgressDigest,
  threshold: number,
): boolean {
  return (
    last !== null &&
    inRestartLoop(last.stalled, threshold) &&
    progressMoved(last.progress, progressNow).length === 0
  );
}

/** A move of HEAD in this worktree that was not a commit made here (from the reflog). */
export interface HeadMove {
  /** The reflog's word for it: checkout, pull, merge, reset, rebase, cherry-pick, ... */
  kind: string;
  subject: string;
}

/** What the agent's own records say it did since the last checkpoint. */
export interface OwnFacts {
  /** Files its tools wrote, with what each held right after its last write (null: unknown). */
  files: Record<string, { at: string; state: FileState | null }>;
  /** When its shell commands ran (ms since the epoch): a file changed during one may be theirs. */
  shellRuns: { from: number; to: number }[];
  /** Commits made in this worktree (the reflog's `commit` entries), by sha. */
  commits: string[];
  /** HEAD moves in this worktree that were not commits made here. */
  moves: HeadMove[];
  /** False when the reflog could not be read: then no commit can be called the agent's. */
  reflog: boolean;
  /** Host hooks record its edits here; if not, an unexplained change is unrecorded, not foreign. */
  recorded: boolean;
}

/** No recorded fact at all (an agent without hooks, or none run yet). */
export const NO_OWN_FACTS: OwnFacts = {
  files: {},
  shellRuns: [],
  commits: [],
  moves: [],
  reflog: false,
  recorded: false,
};

/** The `why` of a file change that nothing recorded (no host hooks here). */
export const UNRECORDED = 'no record of who changed it';

/** The tree as it is now, for the paths being judged. */
export interface TreeNow {
  /** What each path holds now (`sha256:…`, `deleted` or null for gone, ...); absent: not known. */
  states: Record<string, FileState | null>;
  /** The mtime of each path (ms since the epoch); absent or null: gone or not known. */
  mtimes: Record<string, number | null>;
}

/** How one changed path is explained. */
export interface PathVerdict {
  path: string;
  own: boolean;
  /** Why, in a few words ("you edited it", "changed after your last edit of it", ...). */
  why: string;
}

// A change this close after a shell command ended still counts as the command's (clock steps,
// filesystems that round mtimes to the second).
const SHELL_SLACK_MS = 2000;

/** Judges one changed path: is it explained by what the agent recorded doing? */
export function judgePath(
  path: string,
  own: OwnFacts,
  tree: TreeNow,
  commitFiles: { own: ReadonlySet<string>; foreign: ReadonlySet<string> },
): PathVerdict {
  if (commitFiles.foreign.has(path))
    return { path, own: false, why: 'changed by a commit not made here' };
  const mtime = tree.mtimes[path];
  // Written during one of the agent's shell commands (that ended after `since`).
  const byShell = (since: number) =>
    typeof mtime === 'number' &&
    own.shellRuns.some(
      (run) =>
        run.to >= since && mtime >= run.from - SHELL_SLACK_MS && mtime <= run.to + SHELL_SLACK_MS,
    );
  const shell: PathVerdict = { path, own: true, why: 'written while your shell command ran' };
  const edit = own.files[path];
  if (edit) {
    const now = path in tree.states ? (tree.states[path] ?? 'deleted') : undefined;
    if (edit.state === null || now === undefined || now === edit.state)
      return { path, own: true, why: 'you edited it' };
    // Changed since the agent last wrote it: by a later command of its own, or by someone else.
    if (byShell(Date.parse(edit.at))) return shell;
    return { path, own: false, why: 'changed after your last edit of it' };
  }
  if (commitFiles.own.has(path)) return { path, own: true, why: 'in a commit you made here' };
  if (byShell(Number.NEGATIVE_INFINITY)) return shell;
  return { path, own: false, why: own.recorded ? 'no recorded edit of yours' : UNRECORDED };
}

// The reflog's words for a commit made in this worktree (own), as opposed to a move that brought
// in work from elsewhere or replaced it.
const OWN_MOVE = /^(commit|revert)\b/;

/** Whether a reflog subject (`commit: …`, `pull: Fast-forward`, ...) is a commit made here. */
export function isOwnMove(subject: string): boolean {
  return OWN_MOVE.test(subject);
}

/** Drift split by who caused it. */
export type DriftVerdict = ReturnType<typeof judgeDrift>;

/** "2 commits (1a2b3c4 Fix x, 5d6e7f8 Add y)"; `what` goes after "commits". */
export function commitsNamed(commits: readonly { sha: string; subject: string }[], what = '') {
  const each = commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`);
  return `${plural(commits.length, 'commit')}${what} (${shortList(each, 2)})`;
}

/** Splits the drift since the last checkpoint (null: none) into own and foreign changes. */
export function judgeDrift(drift: Drift | null, own: OwnFacts, tree: TreeNow) {
  const ownShas = new Set(own.reflog ? own.commits : []);
  const ownCommits: { sha: string; subject: string }[] = [];
  const foreignCommits: typeof ownCommits = [];
  const commitFiles = { own: new Set<string>(), foreign: new Set<string>() };
  for (const commit of drift?.head?.commits ?? []) {
    const mine = ownShas.has(commit.sha);
    (mine ? ownCommits : foreignCommits).push({ sha: commit.sha, subject: commit.subject });
    for (const file of commit.files ?? []) commitFiles[mine ? 'own' : 'foreign'].add(file);
  }
  const paths = new Set([...(drift?.files ?? []), ...(drift?.key_files ?? [])].map((f) => f.path));
  const verdicts = [...paths].map((path) => judgePath(path, own, tree, commitFiles));
  const ownFiles = verdicts.filter((v) => v.own);
  const foreignFiles = verdicts.filter((v) => !v.own && v.why !== UNRECORDED);
  const unrecordedFiles = verdicts.filter((v) => v.why === UNRECORDED);
  const recordedDrops = drift?.head?.dropped ?? 0;
  // A commit replaced by an amend is dropped too; only a move that was not a commit made here
  // (a reset, a rebase, a checkout) makes the missing commits someone else's doing.
  const dropped = recordedDrops > 0 && (!own.reflog || own.moves.length > 0) ? recordedDrops : 0;
  const editedSomething = Object.keys(own.files).length > 0 || own.shellRuns.length > 0;
  // Outside git the listing digest changes with every edit: the agent's own edits may explain it.
  const unlisted = (drift?.unlisted ?? []).filter(
    (note) => !(editedSomething && note.startsWith('the tree listing changed')),
  );
  const after = foreignFiles.filter((v) => v.why === 'changed after your last edit of it');
  const unexplained = foreignFiles.filter((v) => v.why === 'no recorded edit of yours');
  const branch = drift?.branch ?? null;
  const causes = [
    branch && `the branch changed (${branch.from ?? 'none'} → ${branch.to ?? 'none'})`,
    foreignCommits.length > 0 && commitsNamed(foreignCommits, ' not made here'),
    dropped > 0 &&
      `${plural(dropped, 'recorded commit')} no longer in the history (a reset or rebase)`,
    unexplained.length > 0 &&
      `${plural(unexplained.length, 'file')} changed that no recorded edit of yours explains (${shortList(
        unexplained.map((v) => v.path),
        3,
      )})`,
    after.length > 0 &&
      `${plural(after.length, 'file')} changed after your last edit (${shortList(
        after.map((v) => v.path),
        3,
      )})`,
    ...unlisted,
  ].filter((cause): cause is string => typeof cause === 'string');
  return {
    /** Files the agent's recorded facts explain (uncheckpointed work of its own). */
    ownFiles,
    /** Commits made here since the checkpoint. */
    ownCommits,
    foreignFiles,
    /** Files nothing recorded a writer of: named at every level, no cause for a rebuild. */
    unrecordedFiles,
    foreignCommits,
    /** The branch changed (always foreign: the work now stands on another line of history). */
    branch,
    /** Recorded commits gone from the history that no commit of the agent's explains (amend). */
    dropped,
    /** Changes that cannot be named file by file and that no recorded fact explains. */
    unlisted,
    /** One short phrase per foreign cause (what `level_reason` names). */
    causes,
    foreign: causes.length > 0,
  };
}

/** The verdict when nothing was measured (no checkpoint yet): nothing foreign is known. */
export const noDriftVerdict = (): DriftVerdict =>
  judgeDrift(null, NO_OWN_FACTS, { states: {}, mtimes: {} });

/** A stale completion marker, with each changed file judged. */
export type StaleVerdict = ReturnType<typeof judgeStale>[number];

/** Judges the files of stale markers as drift is judged (a file judged there keeps its verdict). */
export function judgeStale(
  stale: readonly { id: string; changed: { path: string }[] }[],
  drift: DriftVerdict,
  own: OwnFacts,
  tree: TreeNow,
) {
  const judged = new Map(
    [...drift.ownFiles, ...drift.foreignFiles, ...drift.unrecordedFiles].map((v) => [v.path, v]),
  );
  const none = { own: new Set<string>(), foreign: new Set<string>() };
  return stale.map(({ id, changed }) => {
    const files = changed.map((c) => judged.get(c.path) ?? judgePath(c.path, own, tree, none));
    const mine = files.every((f) => f.own);
    const unrecorded = !mine && files.every((f) => f.own || f.why === UNRECORDED);
    // `own`: every changed file is explained by the agent's own facts; `unrecorded`: not own, yet
    // nothing foreign either (some files nothing recorded a writer of).
    return { id, files, own: mine, unrecorded };
  });
}
