// What verify found, as findings that each say what is wrong and what to do about it (pure).
import { describeChange, type Drift } from '../fingerprint/diff.js';
import type { MarkerCheck } from '../markers/check-markers.js';
import type { ForbiddenHit } from '../state/forbidden.js';
import { shellQuote } from '../text/safe-text.js';
import { plural, shortList } from '../text/plural.js';

/** Where a forbidden path was seen. */
export type ForbiddenSource = 'dirty' | 'untracked' | 'changed';

/** A forbidden path, with where it was seen. */
export interface ForbiddenFinding extends ForbiddenHit {
  /** `dirty` (staged or modified), `untracked`, or `changed` since the checkpoint (committed). */
  source: ForbiddenSource;
}

/** One thing verify found, with the fix. */
export interface VerifyFinding {
  kind: 'stale_marker' | 'forbidden' | 'drift';
  message: string;
  fix: string;
  /** The marker id (stale_marker). */
  id?: string;
  /** The path and where it was seen (forbidden). */
  path?: string;
  source?: ForbiddenSource;
}

/** A finding per stale marker, and per marker whose file list cannot be read. */
export function markerFindings(markers: readonly MarkerCheck[]): VerifyFinding[] {
  return markers.flatMap(({ id, problem, state, changed }): VerifyFinding[] => {
    const finding = (message: string, fix: string) => [
      { kind: 'stale_marker' as const, id, message, fix },
    ];
    if (problem) return finding(`marker ${id} cannot be verified: ${problem.what}`, problem.fix);
    if (state !== 'stale') return [];
    return finding(
      `marker ${id} is stale: ${shortList(changed.map((c) => `${c.path} (${c.reason})`))}`,
      `re-check step ${id}; when it is still done run \`agent-state done ${id} --refresh\` to record the same files again, otherwise \`agent-state undone ${id}\``,
    );
  });
}

/** A finding per forbidden path. */
export function forbiddenFindings(hits: readonly ForbiddenFinding[]): VerifyFinding[] {
  return hits.map((hit) => ({
    kind: 'forbidden' as const,
    path: hit.path,
    source: hit.source,
    message: `${hit.path} (${hit.source}) is in a forbidden zone: ${hit.rule}`,
    fix:
      hit.source === 'untracked'
        ? `remove or move ${hit.path}; if the rule is wrong, edit the Forbidden section of goals.md`
        : hit.source === 'dirty'
          ? `undo the change: \`git restore --staged --worktree -- ${shellQuote(hit.path)}\`; if the rule is wrong, edit goals.md`
          : `revert the commit that changed ${hit.path} (git revert), or, if it was intended, edit goals.md`,
  }));
}

const CHECKPOINT_FIX =
  'review the change; when it is intended, record it with `agent-state checkpoint`';

/** One finding per kind of drift. */
export function driftFindings(drift: Drift | null): VerifyFinding[] {
  if (!drift?.drifted) return [];
  const findings: VerifyFinding[] = [];
  const push = (message: string, fix = CHECKPOINT_FIX) =>
    findings.push({ kind: 'drift', message, fix });
  if (drift.head) {
    const { commits, dropped } = drift.head;
    const parts: string[] = [];
    if (commits === null) parts.push('to an unrelated commit');
    else {
      const shown = shortList(
        commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`),
        10,
      );
      if (commits.length > 0) parts.push(`${plural(commits.length, 'new commit')}: ${shown}`);
      if (dropped) parts.push(`${plural(dropped, 'recorded commit')} no longer in the history`);
    }
    push(`HEAD moved since the checkpoint (${parts.join('; ')})`);
  }
  if (drift.branch)
    push(
      `the branch changed: ${drift.branch.from ?? '(detached)'} → ${drift.branch.to ?? '(detached)'}`,
      'switch back if that was a mistake; otherwise record it with `agent-state checkpoint`',
    );
  if (drift.files.length > 0) {
    const shown = shortList(
      drift.files.map((f) => `${f.path} (${describeChange(f)})`),
      10,
    );
    push(`${plural(drift.files.length, 'file')} changed since the checkpoint: ${shown}`);
  }
  for (const note of drift.unlisted) push(note);
  if (drift.key_files.length > 0)
    push(
      `key files changed: ${shortList(drift.key_files.map((f) => `${f.path} (${f.change})`))}`,
      'reinstall or rebuild if a lockfile or build file changed, then `agent-state checkpoint`',
    );
  for (const change of drift.runtime)
    push(
      `the runtime changed: ${change.field} ${change.from} → ${change.to}`,
      'rerun the tests on this runtime, then `agent-state checkpoint`',
    );
  return findings;
}
