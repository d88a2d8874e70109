// Sections as labelled lines: the common ground of the text and Markdown renderings.
import { plural } from '../text/plural.js';
import type { SectionName, StatusSections } from './sections.js';

/** What a model reads when every section was cleared. */
export const CLEARED_MESSAGE = 'Current status: none. Earlier status snapshots no longer apply.';

/** One labelled line of a section, with optional bullet items under it. */
export interface SectionLine {
  label: string;
  text: string;
  items?: string[];
}

/** A section's label as a model reads it: its name, capitalized (`Task`, `Tools`). */
export const sectionLabel = (name: SectionName): string => name[0]!.toUpperCase() + name.slice(1);

/** "just now", "12 min ago", "3 h ago", "2 d ago". */
export function ageText(fromIso: string, nowIso: string): string {
  const seconds = Math.max(0, (Date.parse(nowIso) - Date.parse(fromIso)) / 1000);
  if (!Number.isFinite(seconds)) return 'at an unknown time';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

// The lines of each section (its value is not null).
const SECTION_LINES: {
  [K in SectionName]: (value: NonNullable<StatusSections[K]>, nowIso: string) => SectionLine[];
} = {
  task: (task) => {
    const lines: SectionLine[] = task.goal ? [{ label: 'Goal', text: task.goal }] : [];
    const parts: string[] = [];
    if (task.stage) parts.push(`stage ${task.stage}`);
    if (task.next_action) parts.push(`next: ${task.next_action}`);
    if (task.step)
      parts.push(`step ${task.step.id}${task.step.title ? ` (${task.step.title})` : ''}`);
    if (task.plan) {
      const p = task.plan;
      const extra = [
        p.running ? `${p.running} running` : '',
        p.blocked ? `${p.blocked} blocked` : '',
        p.failed ? `${p.failed} failed` : '',
      ].filter(Boolean);
      parts.push(`plan ${p.done}/${p.total} done${extra.length ? `, ${extra.join(', ')}` : ''}`);
    }
    if (parts.length > 0) lines.push({ label: 'Task', text: parts.join('; ') });
    return lines;
  },
  environment: (e) => [{ label: 'Environment', text: `cwd ${e.cwd}` }],
  tools: (tools) => {
    const parts = tools.items.map((t) => {
      const notes: string[] = [];
      const inARow = t.consecutive_failures ?? 0;
      if (t.failures)
        notes.push(`${t.failures} failed${inARow > 1 ? ` (${inARow} in a row)` : ''}`);
      if (t.no_new_results)
        notes.push(
          t.no_new_results === 1
            ? 'the last call found nothing new'
            : `last ${t.no_new_results} calls found nothing new`,
        );
      return `${t.name} ${plural(t.calls, 'call')}${notes.length ? `, ${notes.join(', ')}` : ''}`;
    });
    if (tools.more > 0) parts.push(plural(tools.more, 'more tool'));
    return [{ label: 'Tools', text: parts.join('; ') }];
  },
  verification: (v) => {
    const counts =
      v.passed === undefined && v.failed === undefined
        ? [v.exit_code === 0 ? 'passed (exit code 0)' : `failed (exit code ${v.exit_code ?? '?'})`]
        : [`${v.passed ?? 0} passed`, `${v.failed ?? 0} failed`];
    if (v.skipped) counts.push(`${v.skipped} skipped`);
    const where = [v.command ? `\`${v.command}\`` : '', v.artifact ? `output ${v.artifact}` : '']
      .filter(Boolean)
      .join(', ');
    return [{ label: 'Verification', text: `${counts.join(', ')}${where ? ` (${where})` : ''}` }];
  },
  budget: (b) => {
    const parts: string[] = [];
    if (b.tool_calls)
      parts.push(`${b.tool_calls.left} of ${plural(b.tool_calls.limit, 'tool call')} left`);
    if (b.tokens) parts.push(`${b.tokens.left} of ${plural(b.tokens.limit, 'token')} left`);
    return [{ label: 'Budget', text: parts.join('; ') }];
  },
  checkpoint: (c, nowIso) => [
    {
      label: 'Checkpoint',
      text: `last ${ageText(c.at, nowIso)} (event #${c.seq})${c.summary ? `: ${c.summary}` : ''}`,
    },
  ],
  permissions: (p) => {
    const last = p.last_denied ? ` (last denied: ${p.last_denied})` : '';
    const text = `${p.requested} requested, ${p.granted} granted, ${p.denied} denied${last}`;
    return [{ label: 'Permissions', text }];
  },
  signals: (signals) => [
    { label: 'Signals', text: '', items: signals.map((s) => `[${s.level}] ${s.message}`) },
  ],
};

/** The lines of one section (none when it is empty). */
export function sectionLines(
  name: SectionName,
  sections: StatusSections,
  nowIso: string,
): SectionLine[] {
  const value = sections[name];
  return value
    ? (SECTION_LINES[name] as (v: object, now: string) => SectionLine[])(value, nowIso)
    : [];
}
