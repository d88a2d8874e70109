// The instructions (per level, role and source; never cut). The drift report of level 3 is in
// recovery-sections.ts.
import { section, type Section } from './model.js';
import type { LevelChoice } from './choose-level.js';
import type { BootLevel, BootRole, BootSource } from './types.js';

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
  return section('instructions', 'Instructions', 'other', lines);
}
