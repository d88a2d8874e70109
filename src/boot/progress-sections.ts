// The progress layer as prompt sections: next action, current step, reminders, the restart-loop
// warning (never cut); the plan with its markers, the last verification, the task memory.
import { compareEntryIds } from '../evidence/entry-id.js';
import { headline } from './evidence-sections.js';
import { PLAN_STATUS_ICONS, readyItems, readyLine } from '../state/plan.js';
import type { PlanItem, Progress, Reminder } from '../types.js';
import { RANK, ago, bullet, idList, keep, type Block, section, type Section } from './model.js';
import type { BootAgent, BootAgents, BootEvidence, BootLevel, BootMarker } from './types.js';

const PLAN_LIST = 'agent-state plan list';

/** Next action, stage, the items ready to start, and current step. */
export function nextSections(progress: Progress): Section[] {
  const next = progress.next_action?.trim()
    ? progress.next_action
    : '(none set: pick it from the plan, then record it with `agent-state next "..."`)';
  const blocks = [keep(next)];
  if (progress.stage) blocks.push(keep(`Stage: ${progress.stage}`, '\n\n'));
  const ready = readyItems(progress.plan);
  if (ready.length) blocks.push(keep(`Ready to start: ${readyLine(ready)}`, '\n\n'));
  const sections: Section[] = [section('next-action', 'Next action', 'progress', blocks)];
  const step = progress.current_step;
  if (step && Object.keys(step).length > 0) {
    const scopes = step.file_scopes?.map((s) => `\`${s}\``).join(', ');
    const lines = [
      [step.id, step.objective].filter(Boolean).join(' — '),
      step.expected_output && bullet(`Done when: ${step.expected_output}`),
      step.allowed_tools?.length && bullet(`Allowed tools: ${step.allowed_tools.join(', ')}`),
      step.denied_tools?.length && bullet(`Denied tools: ${step.denied_tools.join(', ')}`),
      scopes && bullet(`May modify only: ${scopes}`),
      ...(step.constraints ?? []).map((c) => bullet(`Step constraint: ${c}`)),
    ];
    const shown = lines.filter((l): l is string => typeof l === 'string' && l !== '');
    sections.push(section('current-step', 'Current step', 'progress', shown));
  }
  return sections;
}

/** How many other agents the boot names one by one; the rest are counted. */
const MAX_OTHER_AGENTS = 8;

function otherLine(other: BootAgent, now: Date): string {
  const who =
    other.agent === null
      ? `the default agent (no name) in ${other.worktree}`
      : `${other.agent} (${other.worktree}${other.branch ? `, branch ${other.branch}` : ''})`;
  const live = other.claims.filter((c) => !c.expired).map((c) => c.item);
  const parts = [
    live.length ? `claims ${live.join(', ')}` : 'claims nothing',
    `next: ${other.next_action ?? '(none set)'}`,
  ];
  if (other.current_step?.id) parts.push(`step ${other.current_step.id}`);
  parts.push(`seen ${ago(other.last_seen, now)}`);
  return bullet(`${who}: ${parts.join('; ')}`);
}

/** Who this agent is and holds, and a line per other active agent (never cut: claims matter). */
export function agentsSection(agents: BootAgents | null | undefined, now: Date): Section | null {
  if (!agents || (agents.self === null && agents.others.length === 0)) return null;
  const lines: (Block | string)[] = [];
  if (agents.self !== null)
    lines.push(
      `You are agent ${agents.self}${agents.claims.length ? `; you hold ${agents.claims.join(', ')}` : '; you hold no claim'} (\`agent-state plan claim ID\` before you start an item).`,
    );
  const shown = agents.others.slice(0, MAX_OTHER_AGENTS);
  if (shown.length > 0) {
    const sep = lines.length ? '\n\n' : undefined;
    lines.push(keep('Other active agents — leave their claimed items to them:', sep));
    for (const other of shown) lines.push(otherLine(other, now));
    const more = agents.others.length - shown.length;
    if (more > 0) lines.push(bullet(`and ${more} more: \`agent-state status --all\``));
  }
  return section('agents', 'Agents', 'progress', lines);
}

const LOOP_ADVICE =
  'Take a different approach (re-plan the step, split it, or question an assumption), or stop and ask a human for help. Record progress with `agent-state checkpoint` as soon as something works.';

/** The plain warning of a restart loop, with the last three next actions. */
export function restartLoopSection(
  progress: Progress,
  stalled: number,
  threshold: number,
  now: Date,
): Section {
  const history = [...(progress.stamp?.recent_next_actions ?? [])];
  const current = progress.next_action ?? '';
  if (current.trim() && history[history.length - 1]?.text !== current)
    history.push({ text: current, at: '' });
  const lines: (Block | string)[] = [
    `You are in a restart loop: ${stalled} boots in a row with no progress between them (boot.stall_threshold is ${threshold}). Repeating the same approach will not work.`,
  ];
  const last = history.slice(-3);
  if (last.length > 0) {
    lines.push(keep('The last next actions (oldest first):', '\n\n'));
    for (const entry of last)
      lines.push(bullet(`${entry.text}${entry.at ? ` (set ${ago(entry.at, now)})` : ''}`));
  }
  lines.push(keep(LOOP_ADVICE, '\n\n'));
  return section('restart-loop', 'Restart loop', 'progress', lines);
}

/** The reminders this boot shows (never cut: they are shown only once). */
export function reminderSection(reminders: readonly Reminder[], now: Date): Section | null {
  if (reminders.length === 0) return null;
  return section(
    'reminders',
    'Reminders (shown once)',
    'progress',
    reminders.map((r) => bullet(`${r.text} (queued ${ago(r.at, now)})`)),
  );
}

/** "done, verified" or "done, STALE: <files> changed — re-check before relying on it". */
export function markerText(marker: BootMarker | undefined): string {
  if (!marker) return 'done';
  if (marker.state === 'valid') return 'done, verified';
  if (marker.state === 'stale') {
    const files = marker.changed.map(
      (c) => `${c.path}${c.reason && c.reason !== 'changed' ? ` (${c.reason})` : ''}`,
    );
    return `done, STALE: ${files.join(', ')} changed — re-check before relying on it`;
  }
  if (marker.problem) return `done, unverifiable: ${marker.problem.what} — ${marker.problem.fix}`;
  if (marker.state === 'unverifiable') return 'done (no files recorded to verify)';
  return 'done (no completion marker)';
}

function itemLine(item: PlanItem, marker: BootMarker | undefined): string {
  let text = `${PLAN_STATUS_ICONS[item.status]} ${item.id} ${item.title}`;
  if (item.status === 'done') text += ` — ${markerText(marker)}`;
  else if (item.status !== 'pending') text += ` (${item.status})`;
  if (item.depends_on?.length && item.status === 'pending')
    text += ` (after ${item.depends_on.join(', ')})`;
  if (item.note) text += ` — ${item.note}`;
  return bullet(text);
}

/** The plan with statuses and markers; done items collapse into a count first. */
export function planSection(
  progress: Progress,
  markers: readonly BootMarker[],
  level: BootLevel,
): Section | null {
  const plan = progress.plan ?? [];
  if (level < 2 || plan.length === 0) return null;
  const byId = new Map(markers.map((m) => [m.id, m]));
  const current = progress.current_step?.id;
  const blocks = plan.map((item, i): Block => {
    const marker = byId.get(item.id);
    const done = item.status === 'done' && marker?.state !== 'stale';
    // Done items go first, oldest first; the current and running items last, then the nearest.
    const last = item.id === current || item.status === 'running';
    return {
      text: itemLine(item, marker),
      rank: done ? RANK.doneItems : RANK.planItems,
      order: done ? i : last ? plan.length + 1 : plan.length - i,
      ...(done && { group: 'done' }),
      omission: { kind: done ? 'done_items' : 'plan_items', id: item.id, how: PLAN_LIST },
    };
  });
  const planIds = new Set(plan.map((p) => p.id));
  for (const marker of markers) {
    if (planIds.has(marker.id)) continue;
    blocks.push({
      text: bullet(`[x] ${marker.id} (no plan item) — ${markerText(marker)}`),
      rank: RANK.planItems,
      order: 0,
      omission: { kind: 'plan_items', id: marker.id, how: PLAN_LIST },
    });
  }
  return section('plan', 'Plan', 'progress', blocks, {
    summarize(cut) {
      const done = cut.filter((b) => b.group === 'done').map((b) => b.omission!.id!);
      const other = cut.filter((b) => b.group !== 'done').map((b) => b.omission!.id!);
      const parts: string[] = [];
      if (done.length) parts.push(bullet(`[x] ${done.length} done, collapsed: ${idList(done)}`));
      if (other.length)
        parts.push(bullet(`… ${other.length} more not shown: ${idList(other)} (\`${PLAN_LIST}\`)`));
      return parts.length ? parts.join('\n') : null;
    },
  });
}

/** The last verification: the newest test or checkpoint evidence, the last checkpoint's tests, the stamp. */
export function lastVerificationSection(
  progress: Progress,
  evidence: readonly BootEvidence[],
  boots: number,
  now: Date,
): Section {
  const stamp = progress.stamp ?? {};
  const lines: string[] = [];
  const verification = evidence
    .filter((e) => e.kind === 'test' || e.kind === 'checkpoint' || e.kind === 'verify')
    .sort((a, b) => compareEntryIds(b.id, a.id))[0];
  if (verification) lines.push(headline(verification, now));
  const test = stamp.last_test;
  if (test) {
    const counts =
      test.passed != null || test.failed != null
        ? `${test.passed ?? 0} passed, ${test.failed ?? 0} failed`
        : `exit ${test.exit_code ?? 'signal'}`;
    const how = test.timed_out ? 'timed out' : counts;
    lines.push(
      `Tests at the last checkpoint: \`${test.command ?? 'tests'}\`: ${how} (${ago(test.at, now)})`,
    );
  }
  const checkpoints = stamp.checkpoints ?? 0;
  lines.push(
    checkpoints === 0
      ? 'No checkpoint yet: record one with `agent-state checkpoint` once the work is in a good state.'
      : `Last checkpoint ${ago(stamp.last_checkpoint, now)} (${checkpoints} in all); this is boot ${boots}.`,
  );
  return section(
    'last-verification',
    'Last verification',
    'progress',
    lines.map((text, i) => ({
      text: bullet(text),
      rank: RANK.lastVerification,
      order: i,
      omission: { kind: 'last_verification', how: 'agent-state status' },
    })),
  );
}

/** Durable facts and working notes (level 2 and up), labelled as `memory` addresses them. */
export function memorySection(progress: Progress, level: BootLevel): Section | null {
  const durable = progress.memory?.durable ?? [];
  const working = progress.memory?.working ?? [];
  if (level < 2 || durable.length + working.length === 0) return null;
  const notes = (list: string[], d: 'd' | 'w', kind: 'durable_memory' | 'working_memory') =>
    list.map((text, i): Block => ({
      text: bullet(`[${d}${i + 1}] ${d === 'w' ? '(working) ' : ''}${text}`),
      rank: d === 'd' ? RANK.durableMemory : RANK.workingMemory,
      order: i,
      omission: { kind, id: `${d}${i + 1}`, how: 'agent-state memory list' },
    }));
  return section('memory', 'Memory', 'progress', [
    ...notes(durable, 'd', 'durable_memory'),
    ...notes(working, 'w', 'working_memory'),
  ]);
}
