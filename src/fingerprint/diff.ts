// Drift (pure): what changed between the fingerprint a checkpoint recorded and the current one.
// Changes to .agent/ are never drift, so committing the state right after a checkpoint leaves
// the report empty.
import type { CommitInfo, History, PathChange } from '../git/history.js';
import { isAgentPath } from '../state/repo-path.js';
import type { FileState, Fingerprint } from '../types.js';

/** How one file differs from the checkpoint (`renamed` only by commits, with `from`). */
export type FileChange = PathChange;

/** "modified", "added", "renamed from old/path.ts". */
export function describeChange(file: FileChange): string {
  return file.change === 'renamed' ? `renamed from ${file.from}` : file.change;
}

/** HEAD moved since the checkpoint. */
export interface HeadDrift {
  from: string | null;
  to: string | null;
  /** New commits, newest first, with the files each touched (commits that touched only .agent/ are left out); null when unknown. */
  commits: CommitInfo[] | null;
  /** Recorded commits no longer in the history (a reset, a rebase, a branch switch); null when unknown. */
  dropped: number | null;
}

/** Everything that differs between a recorded fingerprint and the current one. */
export interface Drift {
  /** True when anything below differs. */
  drifted: boolean;
  /** When the recorded fingerprint was taken. */
  since: string;
  head: HeadDrift | null;
  branch: { from: string | null; to: string | null } | null;
  /** Files whose content differs from the checkpoint, by path. */
  files: FileChange[];
  /** Changes that exist but cannot be named file by file, one sentence each. */
  unlisted: string[];
  key_files: FileChange[];
  runtime: { field: keyof Fingerprint['runtime']; from: string; to: string }[];
}

/** What the I/O side knows beyond the two fingerprints. */
export interface DriftContext {
  /** From the recorded HEAD to the current one; null when the recorded commit is unknown here. Needed only when HEAD moved. */
  history?: History | null;
  /** The current state of paths that were dirty or untracked at the checkpoint and are clean now (null: missing). */
  worktree?: Record<string, FileState | null>;
}

const byPath = (a: FileChange, b: FileChange) => (a.path < b.path ? -1 : 1);

function compareMaps(was: Record<string, FileState>, now: Record<string, FileState>): FileChange[] {
  return [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((path) => was[path] !== now[path])
    .map((path) => ({ path, change: changeKind(was[path], now[path] ?? null) }))
    .sort(byPath);
}

function changeKind(was?: FileState, now?: FileState | null): FileChange['change'] {
  if (now === null || now === 'deleted') return 'deleted';
  if (was === undefined || was === 'deleted') return 'added';
  return 'modified';
}

// Files whose content now differs from the content at the checkpoint. A path absent from both
// maps has its HEAD content both times, so it changed only if the commits in between changed it.
function changedFiles(
  recorded: Fingerprint,
  current: Fingerprint,
  committed: Map<string, PathChange> | null,
  worktree: Record<string, FileState | null>,
): FileChange[] {
  const was: Record<string, FileState> = { ...recorded.dirty, ...recorded.untracked };
  const now: Record<string, FileState> = { ...current.dirty, ...current.untracked };
  const changes: FileChange[] = [];
  const paths = new Set([...Object.keys(was), ...Object.keys(now), ...(committed?.keys() ?? [])]);
  for (const path of paths) {
    if (isAgentPath(path)) continue;
    const before = was[path];
    let after: FileState | null | undefined = now[path];
    // Clean now: its content is the new HEAD's; compare what is on disk with what was recorded.
    if (after === undefined && before !== undefined && path in worktree) after = worktree[path];
    const byCommits = committed?.get(path);
    if (before === undefined && after === undefined) {
      if (byCommits) changes.push(byCommits);
      continue;
    }
    if (before === after) continue;
    // Clean at the checkpoint means it had HEAD's content: a tracked file changed, an untracked one is new.
    const kind =
      after === undefined
        ? 'modified'
        : before === undefined && after !== 'deleted'
          ? path in current.untracked || byCommits?.change === 'added'
            ? 'added'
            : 'modified'
          : changeKind(before, after);
    changes.push({ path, change: kind });
  }
  return changes.sort(byPath);
}

function headDrift(
  recorded: Fingerprint,
  current: Fingerprint,
  history: History | null | undefined,
): HeadDrift | null {
  const from = recorded.git?.head ?? null;
  const to = current.git?.head ?? null;
  if (recorded.git === null || current.git === null || from === to) return null;
  if (!history) return { from, to, commits: null, dropped: null };
  const commits = history.commits
    .filter((c) => c.files.length === 0 || c.files.some((f) => !isAgentPath(f)))
    .map((c) => ({ ...c, files: c.files.filter((f) => !isAgentPath(f)) }));
  if (commits.length === 0 && history.dropped === 0) return null;
  return { from, to, commits, dropped: history.dropped };
}

function unlistedChanges(
  recorded: Fingerprint,
  current: Fingerprint,
  head: HeadDrift | null,
): string[] {
  const notes: string[] = [];
  if ((recorded.git === null) !== (current.git === null))
    notes.push(
      current.git === null
        ? 'the directory is no longer a git work tree'
        : 'the directory became a git work tree',
    );
  if (recorded.listing && current.listing && recorded.listing.digest !== current.listing.digest)
    notes.push(
      `the tree listing changed (${recorded.listing.files} → ${current.listing.files} files); outside git the files cannot be named`,
    );
  if ((recorded.overflow?.digest ?? null) !== (current.overflow?.digest ?? null))
    notes.push(
      `some of the ${Math.max(recorded.overflow?.files ?? 0, current.overflow?.files ?? 0)} changed files summarized by a digest differ`,
    );
  if (head && head.commits === null)
    notes.push(
      `the recorded HEAD ${head.from?.slice(0, 12) ?? '(none)'} is not in this repository, so the files its successors changed cannot be listed`,
    );
  return notes;
}

/** What differs between the fingerprint a checkpoint recorded and the current one. */
export function diffFingerprint(
  recorded: Fingerprint,
  current: Fingerprint,
  context: DriftContext = {},
): Drift {
  const head = headDrift(recorded, current, context.history);
  const committed =
    head === null && recorded.git?.head === current.git?.head
      ? new Map<string, PathChange>()
      : context.history
        ? new Map(context.history.changes.map((c) => [c.path, c]))
        : null;
  const branch =
    recorded.git && current.git && recorded.git.branch !== current.git.branch
      ? { from: recorded.git.branch, to: current.git.branch }
      : null;
  const files = changedFiles(recorded, current, committed, context.worktree ?? {});
  const unlisted = unlistedChanges(recorded, current, head);
  const keys = compareMaps(recorded.key_files, current.key_files);
  const runtime = (Object.keys(current.runtime) as (keyof Fingerprint['runtime'])[])
    .filter((field) => recorded.runtime[field] !== current.runtime[field])
    .map((field) => ({ field, from: recorded.runtime[field], to: current.runtime[field] }));
  const drifted =
    head !== null || branch !== null || [files, unlisted, keys, runtime].some((l) => l.length > 0);
  return { drifted, since: recorded.at, head, branch, files, unlisted, key_files: keys, runtime };
}
