// Rendering a status view for a model or a person: text, XML (<agent-status>), Markdown or JSON;
// whole (full, replace, baseline) or as a delta (only the changed sections, with an explicit
// "no longer applies" for removed ones). Pure.
import type { StatusDiff } from './diff.js';
import { CLEARED_MESSAGE, SECTION_LABELS, sectionLines, type SectionLine } from './render-lines.js';
import { renderXml } from './render-xml.js';
import { markdownData, safeText } from '../text/safe-text.js';
import { STATUS_SECTIONS, type RenderPlan, type StatusView } from './sections.js';

export type StatusFormat = 'text' | 'xml' | 'markdown' | 'json';

export const STATUS_FORMATS: readonly StatusFormat[] = ['text', 'xml', 'markdown', 'json'];

export { CLEARED_MESSAGE };

function headline(plan: RenderPlan): string {
  const { view, epoch } = plan;
  const when = `${view.generated_at}, through event #${view.seq}`;
  switch (plan.kind) {
    case 'replace':
      return `Agent status (agent-state, ${when}). It replaces every earlier status.`;
    case 'baseline':
      return `Agent status baseline, epoch ${epoch} (agent-state, ${when}). Later updates list only what changed.`;
    case 'delta':
      return `Agent status update, epoch ${epoch} (agent-state, ${when}): only these sections changed; the rest of the baseline still applies.`;
    default:
      return `Agent status (agent-state, ${when}).`;
  }
}

function linesOf(plan: RenderPlan): { shown: SectionLine[]; removed: string[] } {
  const shown = plan.shown.flatMap((name) =>
    sectionLines(name, plan.view.sections, plan.view.generated_at),
  );
  const removed = plan.removed.map((name) => `${SECTION_LABELS[name]}: no longer applies.`);
  return { shown, removed };
}

// A value (a goal, a next action, a path) stays on its line, whatever it holds.
const oneLine = (text: string) => safeText(text, { oneLine: true });

function renderText(plan: RenderPlan): string {
  if (plan.kind === 'cleared') return CLEARED_MESSAGE;
  const { shown, removed } = linesOf(plan);
  const out = [headline(plan)];
  for (const line of shown) {
    out.push(line.text ? `${line.label}: ${oneLine(line.text)}` : `${line.label}:`);
    for (const item of line.items ?? []) out.push(`- ${oneLine(item)}`);
  }
  out.push(...removed);
  return out.join('\n');
}

function renderMarkdown(plan: RenderPlan): string {
  if (plan.kind === 'cleared') return `**${CLEARED_MESSAGE}**`;
  const { shown, removed } = linesOf(plan);
  const out = [`_${headline(plan)}_`, ''];
  const data = (text: string) => markdownData(oneLine(text));
  for (const line of shown) {
    out.push(line.text ? `- **${line.label}**: ${data(line.text)}` : `- **${line.label}**:`);
    for (const item of line.items ?? []) out.push(`  - ${data(item)}`);
  }
  for (const line of removed)
    out.push(`- ~~${line.replace(/: no longer applies\.$/, '')}~~: no longer applies.`);
  return out.join('\n');
}

function renderJson(plan: RenderPlan): string {
  const sections: Record<string, unknown> = {};
  for (const name of plan.shown) sections[name] = plan.view.sections[name];
  return JSON.stringify({
    source: 'agent-state',
    kind: plan.kind,
    generated_at: plan.view.generated_at,
    seq: plan.view.seq,
    ...(plan.epoch === null ? {} : { epoch: plan.epoch }),
    ...(plan.kind === 'cleared' ? { message: CLEARED_MESSAGE } : { sections }),
    ...(plan.removed.length > 0 ? { removed: plan.removed } : {}),
  });
}

/** Renders a plan in a format. */
export function renderPlan(plan: RenderPlan, format: StatusFormat): string {
  switch (format) {
    case 'xml':
      return renderXml(plan);
    case 'markdown':
      return renderMarkdown(plan);
    case 'json':
      return renderJson(plan);
    default:
      return renderText(plan);
  }
}

export interface RenderStatusOptions {
  /** Default `full`. */
  kind?: 'full' | 'replace' | 'baseline';
  /** The publish epoch, shown for baselines. */
  epoch?: number;
}

/** The whole status (every non-empty section) in a format. */
export function renderStatus(
  view: StatusView,
  format: StatusFormat,
  options: RenderStatusOptions = {},
): string {
  const shown = STATUS_SECTIONS.filter((name) => view.sections[name] !== null);
  return renderPlan(
    { kind: options.kind ?? 'full', epoch: options.epoch ?? null, view, shown, removed: [] },
    format,
  );
}

/** Only what changed since the last publish: changed and added sections, then removals. */
export function renderStatusDelta(
  view: StatusView,
  diff: StatusDiff,
  format: StatusFormat,
  options: { epoch: number },
): string {
  if (diff.cleared)
    return renderPlan(
      { kind: 'cleared', epoch: options.epoch, view, shown: [], removed: [] },
      format,
    );
  const shown = STATUS_SECTIONS.filter(
    (name) => diff.changed.includes(name) || diff.added.includes(name),
  );
  return renderPlan(
    { kind: 'delta', epoch: options.epoch, view, shown, removed: diff.removed },
    format,
  );
}
