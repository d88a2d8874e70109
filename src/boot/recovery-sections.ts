// The sections the recovery verdicts add: own uncheckpointed changes and stale markers (at every
// level: true, short, no reason for a rescan), and at level 3 the changes that are not the agent's.
import { commitsNamed, type DriftVerdict } from '../recovery/rules.js';
import { plural, shortList } from '../text/plural.js';

const names = (items: readonly string[]) => shortList(items, 3);
import { MUST_KEEP, RANK, bullet, section, type Section } from './model.js';
import { describeChange, type Drift } from '../fingerprint/diff.js';
import type { StashedChange } from '../git/history.js';
import type { BootLevel, BootRecovery } from './types.js';

/** "Uncheckpointed changes (yours): 3 files (…) — run `agent-state verify`, then checkpoint." */
export function ownChangesSection(recovery: BootRecovery): Section | null {
  const { ownFiles, ownCommits } = recovery.drift;
  if (ownFiles.length === 0 && ownCommits.length === 0) return null;
  const parts: string[] = [];
  if (ownFiles.length)
    parts.push(`${plural(ownFiles.length, 'file')} (${names(ownFiles.map((f) => f.path))})`);
  if (ownCommits.length) parts.push(commitsNamed(ownCommits));
  return section('own-changes', 'Uncheckpointed changes (yours)', 'progress', [
    `${parts.join(' and ')} since the last checkpoint — run \`agent-state verify\`, then \`agent-state checkpoint\`.`,
  ]);
}

/** Changes no host hook recorded a writer of: named at every level, with what settles it. */
export function unrecordedChangesSection(recovery: BootRecovery): Section | null {
  const files = recovery.drift.unrecordedFiles.map((f) => f.path);
  if (files.length === 0) return null;
  return section('unrecorded-changes', 'Uncheckpointed changes (unrecorded)', 'progress', [
    `${plural(files.length, 'file')} (${names(files)}) changed since the last checkpoint, and no host hook recorded who changed ${files.length === 1 ? 'it' : 'them'} — run \`agent-state verify\`; if the change is yours, \`agent-state checkpoint\`.`,
  ]);
}

/** A line per stale marker with the commands for it, at every level; the first is never cut. */
export function staleSection(recovery: BootRecovery): Section | null {
  if (recovery.stale.length === 0) return null;
  return section(
    'stale-markers',
    'Stale completion markers',
    'progress',
    recovery.stale.map((m, i) => {
      const files = m.files.map((f) => f.path);
      const whose = m.own ? 'your edit' : m.unrecorded ? 'unrecorded' : 'not your edit';
      return {
        text: bullet(
          `STALE ${m.id}: ${names(files)} changed (${whose}) — re-check ${m.id} (\`agent-state check ${m.id}\`); still done: \`agent-state done ${m.id} --refresh\``,
        ),
        rank: i === 0 ? MUST_KEEP : RANK.staleMarkers,
        order: recovery.stale.length - i,
        omission: { kind: 'stale_markers', id: m.id, how: 'agent-state check' },
      };
    }),
    {
      summarize: (cut) =>
        cut.length ? `[${plural(cut.length, 'more stale marker')}: \`agent-state verify\`]` : null,
    },
  );
}

/** What a stash entry holding state changes means, and how to get them back without a refusal. */
export function stashAdvice(entries: readonly StashedChange[]): string {
  const what = entries.map((e) => `${e.ref} holds changes to ${e.files.join(', ')} (${e.subject})`);
  return `${what.join('; ')}: what was recorded before \`git stash\` is not in the state files now — \`git stash pop\` brings them back. After a state write since the stash, the pop refuses: first \`git commit -m "agent-state: state" -- .agent/state\`, then \`git stash pop\` merges the two by id.`;
}

/** The state changes that sit in a stash (every level: the files alone do not show them). */
export function stashSection(entries: readonly StashedChange[] | undefined): Section | null {
  if (!entries?.length) return null;
  return section('stash', 'State changes in a stash', 'progress', [stashAdvice(entries)]);
}

const DRIFT_HOW = 'agent-state verify';

function foreignDetails(verdict: DriftVerdict, drift: Drift | null): string[] {
  const { branch, dropped } = verdict;
  const changes = new Map(
    [...(drift?.files ?? []), ...(drift?.key_files ?? [])].map((f) => [f.path, describeChange(f)]),
  );
  const keyFiles = new Set((drift?.key_files ?? []).map((f) => f.path));
  return [
    ...verdict.foreignCommits.map(
      (c) => `commit ${c.sha.slice(0, 7)} ${c.subject} (not made here)`,
    ),
    branch && `branch ${branch.from ?? 'none'} → ${branch.to ?? 'none'}`,
    dropped > 0 &&
      `${plural(dropped, 'recorded commit')} ${dropped === 1 ? 'is' : 'are'} no longer in the history (a reset, rebase or branch switch)`,
    ...verdict.foreignFiles.map((f) => {
      const what = [changes.get(f.path), f.why].filter(Boolean).join(', ');
      return `${keyFiles.has(f.path) ? 'key file ' : ''}${f.path} (${what})`;
    }),
    ...verdict.unlisted,
    ...(drift?.runtime ?? []).map((r) => `${r.field} ${r.from} → ${r.to}`),
  ]
    .filter((d) => typeof d === 'string')
    .map((d) => bullet(d));
}

// Counts only: the details below name each item.
function foreignSummary(verdict: DriftVerdict): string {
  const { foreignCommits, foreignFiles, branch, dropped, unlisted } = verdict;
  const files = (why: string) => foreignFiles.filter((f) => f.why === why).length;
  const unexplained = files('no recorded edit of yours');
  const after = files('changed after your last edit of it');
  const byCommit = foreignFiles.length - unexplained - after;
  const parts = [
    foreignCommits.length > 0 && `${plural(foreignCommits.length, 'commit')} not made here`,
    branch && 'the branch changed',
    dropped > 0 && `${plural(dropped, 'recorded commit')} dropped`,
    unexplained > 0 &&
      `${plural(unexplained, 'file')} changed that no recorded edit of yours explains`,
    after > 0 && `${plural(after, 'file')} changed after your last edit`,
    byCommit > 0 && `${plural(byCommit, 'file')} changed by those commits`,
    unlisted.length > 0 && plural(unlisted.length, 'other change'),
  ];
  return parts.filter((p) => typeof p === 'string').join(', ') || 'the tree changed';
}

/** Level 3: what changed since the last checkpoint that no recorded fact of the agent explains. */
export function foreignDriftSection(
  recovery: BootRecovery,
  drift: Drift | null,
  level: BootLevel,
): Section | null {
  if (level < 3 || !recovery.drift.foreign) return null;
  const details = foreignDetails(recovery.drift, drift);
  const omission = { kind: 'drift_details', how: DRIFT_HOW } as const;
  const rank = RANK.driftDetails;
  const summary = `Since the last checkpoint: ${foreignSummary(recovery.drift)}.`;
  return section(
    'drift',
    'Changes that are not yours',
    'other',
    [
      { text: summary, rank: RANK.driftSummary, order: 0, omission },
      ...details.map((text, i) => ({ text, rank, order: details.length - i, omission })),
    ],
    {
      summarize: (cut) =>
        cut.length && cut.length <= details.length
          ? `[${cut.length} more: \`${DRIFT_HOW}\`]`
          : null,
    },
  );
}
