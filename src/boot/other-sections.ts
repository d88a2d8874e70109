// The sections outside the three layers: the instructions (per level, role and source; never cut)
// and the drift report of level 3.
import { RANK, bullet, keep, type Block, type Section } from './model.js';
import type { BootDrift, BootLevel, BootRole, BootSource, LevelChoice } from './types.js';

const LEVEL_TEXT: Record<BootLevel, string> = {
  1: 'Level 1 (resume): continue now with the next action. Do not re-read the project or re-plan.',
  2: 'Level 2 (restore): your context was reset. Do not re-explore the project structure; skip plan items that are done and verified; start at the next action.',
  3: 'Level 3 (rebuild): the state may no longer match the tree. Verify the drift and re-check stale steps first; a full rescan of the project is allowed.',
};

const ROLE_TEXT: Record<BootRole, string> = {
  execution:
    'Role execution: act on the next action, within the current step’s limits. Record progress with `agent-state next`, `agent-state plan` and `agent-state checkpoint`.',
  planning:
    'Role planning: revise the plan against the goal, the constraints and the non-goals (`agent-state plan ...`), then set the next action. Do not change code.',
  review:
    'Role review: check the results against the success criteria and the evidence; report what is missing or unproven. Do not change code.',
  recovery:
    'Role recovery: reconcile the drift and the stale markers with the plan before any new work — re-check each stale step (`agent-state check ID`), fix the plan, then set the next action.',
};

const SOURCE_TEXT: Record<BootSource, string> = {
  startup: 'A new session started: this state is where the work stands.',
  resume:
    'This session was resumed: the state may be newer than your memory of it; trust the state.',
  compact:
    'Your context was just compacted: where the summary disagrees with this state, the state wins.',
  clear: 'Your context was cleared: this state is all you know about the task.',
};

/** What to do now, given the level, the role and why the host booted. */
export function instructionSection(
  choice: LevelChoice,
  role: BootRole,
  source: BootSource | null,
): Section {
  const lines = [LEVEL_TEXT[choice.level]];
  if (choice.level === 3 && choice.requested === 'auto')
    lines.push(`Why level 3: ${choice.reason.replace(/^auto: /, '')}.`);
  lines.push(ROLE_TEXT[role]);
  if (source) lines.push(SOURCE_TEXT[source]);
  lines.push('Never touch a Forbidden path; keep every Constraint.');
  return {
    key: 'instructions',
    title: 'Instructions',
    layer: 'other',
    blocks: lines.map((l) => keep(l)),
  };
}

const DRIFT_HOW = 'agent-state verify';
const short = (sha: string | null) => (sha ? sha.slice(0, 7) : 'none');

/** The drift report: commits, branch, files, key files and runtime changed since the checkpoint. */
export function driftSection(drift: BootDrift | null, level: BootLevel): Section | null {
  if (level < 3 || !drift?.drifted) return null;
  const details: string[] = [];
  const commits = drift.head?.commits ?? [];
  for (const commit of commits)
    details.push(bullet(`commit ${short(commit.sha)} ${commit.subject}`));
  if (drift.branch)
    details.push(bullet(`branch ${drift.branch.from ?? 'none'} → ${drift.branch.to ?? 'none'}`));
  const dropped = drift.head?.dropped ?? 0;
  if (dropped > 0)
    details.push(
      bullet(
        `${dropped} recorded commit${dropped === 1 ? ' is' : 's are'} no longer in the history (a reset, rebase or branch switch)`,
      ),
    );
  for (const file of drift.key_files)
    details.push(bullet(`key file ${file.path}${file.change ? ` (${file.change})` : ''}`));
  for (const file of drift.files)
    details.push(bullet(`${file.path}${file.change ? ` (${file.change})` : ''}`));
  for (const note of drift.unlisted ?? []) details.push(bullet(note));
  for (const r of drift.runtime) details.push(bullet(`${r.field} ${r.from} → ${r.to}`));
  const counts: string[] = [];
  if (drift.head && drift.head.from !== drift.head.to) {
    counts.push(
      `HEAD moved ${short(drift.head.from)} → ${short(drift.head.to)}${drift.head.commits ? ` (${drift.head.commits.length} commit${drift.head.commits.length === 1 ? '' : 's'})` : ''}`,
    );
  }
  if (drift.files.length)
    counts.push(`${drift.files.length} file${drift.files.length === 1 ? '' : 's'} changed`);
  if (drift.key_files.length)
    counts.push(
      `${drift.key_files.length} key file${drift.key_files.length === 1 ? '' : 's'} changed`,
    );
  if (drift.runtime.length) counts.push('the runtime changed');
  const summary: Block = {
    text: `Since the last checkpoint: ${counts.join(', ') || 'the tree changed'}.`,
    rank: RANK.driftSummary,
    order: 0,
    omission: { kind: 'drift_details', how: DRIFT_HOW },
  };
  return {
    key: 'drift',
    title: 'Drift since the last checkpoint',
    layer: 'other',
    blocks: [
      summary,
      ...details.map((text, i): Block => ({
        text,
        rank: RANK.driftDetails,
        order: details.length - i,
        omission: { kind: 'drift_details', how: DRIFT_HOW },
      })),
    ],
    summarize: (cut) =>
      cut.length && cut.length <= details.length ? `[${cut.length} more: \`${DRIFT_HOW}\`]` : null,
  };
}
