// Rendering a status view for a model or a person: text, XML (<agent-status>), Markdown or JSON;
// whole (full, replace, baseline) or as a delta (only the changed sections, with an explicit
// "no longer applies" for removed ones). Pure.
import {
  ageText,
  CLEARED_MESSAGE,
  sectionLabel,
  sectionLines,
  type SectionLine,
} from './render-lines.js';
import { markdownData, safeText } from '../text/safe-text.js';
import {
  STATUS_SECTIONS,
  type RenderPlan,
  type SectionName,
  type StatusDiff,
  type StatusSections,
  type StatusView,
  type ToolLine,
} from './sections.js';
import type { StatusSignal } from './signals.js';

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
  const removed = plan.removed.map((name) => `${sectionLabel(name)}: no longer applies.`);
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

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Attrs = Record<string, string | number | undefined | null | false>;

// `<name a="1"/>` (no content), `<name>text</name>`, or the child elements on their own lines;
// attributes that are undefined, null, false or empty are left out.
function el(indent: string, name: string, attrs: Attrs, content?: string | string[]): string {
  const open = `${indent}<${name}${Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== '')
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('')}`;
  if (content === undefined) return `${open}/>`;
  if (typeof content === 'string') return `${open}>${esc(content)}</${name}>`;
  return `${open}>\n${content.join('\n')}\n${indent}</${name}>`;
}

const nonZero = (n: number) => (n === 0 ? undefined : n);
const left = (b?: { left: number; limit: number }) => b && `${b.left} of ${b.limit} left`;

const toolXml = (t: ToolLine) =>
  el('    ', 'tool', {
    name: t.name,
    calls: t.calls,
    failures: t.failures,
    'failures-in-a-row': (t.consecutive_failures ?? 0) > 1 && t.consecutive_failures,
    'no-new-results-in-a-row': t.no_new_results,
    artifact: t.artifact,
  });
const signalXml = (s: StatusSignal) =>
  el('    ', 'signal', { id: s.id, level: s.level }, s.message);

// The <agent-status> element of each section: attributes for numbers, text for sentences, so a
// model can find a field by name.
const SECTION_XML: {
  [K in SectionName]: (value: NonNullable<StatusSections[K]>, nowIso: string) => string;
} = {
  task: (t) => {
    const p = t.plan;
    const inner = [
      t.goal && el('    ', 'goal', {}, t.goal),
      t.next_action && el('    ', 'next-action', {}, t.next_action),
      t.step && el('    ', 'step', { id: t.step.id }, t.step.title || undefined),
      p &&
        el('    ', 'plan', {
          done: p.done,
          total: p.total,
          running: nonZero(p.running),
          blocked: nonZero(p.blocked),
          failed: nonZero(p.failed),
        }),
    ].filter((line): line is string => !!line);
    return el('  ', 'task', { stage: t.stage }, inner.length ? inner : undefined);
  },
  environment: (e) => el('  ', 'environment', { cwd: e.cwd }),
  tools: (tools) => el('  ', 'tools', { more: nonZero(tools.more) }, tools.items.map(toolXml)),
  verification: (v) =>
    el('  ', 'verification', {
      passed: v.passed,
      failed: v.failed,
      'exit-code': v.exit_code,
      skipped: v.skipped,
      command: v.command,
      artifact: v.artifact,
    }),
  budget: (b) => el('  ', 'budget', { 'tool-calls': left(b.tool_calls), tokens: left(b.tokens) }),
  checkpoint: (c, nowIso) =>
    el('  ', 'checkpoint', { seq: c.seq, age: ageText(c.at, nowIso), summary: c.summary }),
  permissions: (p) =>
    el('  ', 'permissions', {
      requested: nonZero(p.requested),
      granted: nonZero(p.granted),
      denied: nonZero(p.denied),
      'last-denied': p.last_denied,
    }),
  signals: (signals) => el('  ', 'signals', {}, signals.map(signalXml)),
};

const NOTES: Partial<Record<RenderPlan['kind'], string>> = {
  replace: '  <note>This status replaces every earlier agent-status.</note>',
  delta: '  <note>Only these sections changed; the rest of the baseline still applies.</note>',
};

function renderXml(plan: RenderPlan): string {
  const { view } = plan;
  const head: Attrs = {
    source: 'agent-state',
    'generated-at': view.generated_at,
    seq: view.seq,
    kind: plan.kind === 'full' ? undefined : plan.kind,
    epoch: plan.epoch,
  };
  if (plan.kind === 'cleared') return el('', 'agent-status', head, CLEARED_MESSAGE);
  const body = NOTES[plan.kind] ? [NOTES[plan.kind]!] : [];
  for (const name of plan.shown) {
    const value = view.sections[name];
    const xml = SECTION_XML[name] as (v: object, now: string) => string;
    if (value) body.push(xml(value, view.generated_at));
  }
  for (const name of plan.removed)
    body.push(`  <${name} removed="true">Earlier ${name} status no longer applies.</${name}>`);
  return el('', 'agent-status', head, body);
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

const RENDERERS: Record<StatusFormat, (plan: RenderPlan) => string> = {
  text: renderText,
  xml: renderXml,
  markdown: renderMarkdown,
  json: renderJson,
};

/** Renders a plan in a format. */
export function renderPlan(plan: RenderPlan, format: StatusFormat): string {
  return (RENDERERS[format] ?? renderText)(plan);
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
  const { kind = 'full', epoch = null } = options;
  return renderPlan({ kind, epoch, view, shown, removed: [] }, format);
}

/** Only what changed since the last publish: changed and added sections, then removals. */
export function renderStatusDelta(
  view: StatusView,
  diff: StatusDiff,
  format: StatusFormat,
  { epoch }: { epoch: number },
): string {
  if (diff.cleared)
    return renderPlan({ kind: 'cleared', epoch, view, shown: [], removed: [] }, format);
  const shown = STATUS_SECTIONS.filter((n) => diff.changed.includes(n) || diff.added.includes(n));
  return renderPlan({ kind: 'delta', epoch, view, shown, removed: diff.removed }, format);
}
