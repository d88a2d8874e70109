// The <agent-status> XML rendering: one element per section, attributes for numbers, text for
// sentences, so a model can find a field by name.
import type { RenderPlan } from './sections.js';
import { ageText, CLEARED_MESSAGE } from './render-lines.js';
import type { SectionName, StatusSections } from './sections.js';

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

// ` name="value"` for every defined attribute, in order.
function attrs(pairs: [string, string | number | undefined | null | false][]): string {
  return pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== '')
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('');
}

const nonZero = (n: number) => (n === 0 ? undefined : n);

function taskXml(task: NonNullable<StatusSections['task']>): string {
  const inner: string[] = [];
  if (task.goal) inner.push(`    <goal>${esc(task.goal)}</goal>`);
  if (task.next_action) inner.push(`    <next-action>${esc(task.next_action)}</next-action>`);
  if (task.step)
    inner.push(
      task.step.title
        ? `    <step${attrs([['id', task.step.id]])}>${esc(task.step.title)}</step>`
        : `    <step${attrs([['id', task.step.id]])}/>`,
    );
  if (task.plan) {
    const p = task.plan;
    inner.push(
      `    <plan${attrs([
        ['done', p.done],
        ['total', p.total],
        ['running', nonZero(p.running)],
        ['blocked', nonZero(p.blocked)],
        ['failed', nonZero(p.failed)],
      ])}/>`,
    );
  }
  const open = `  <task${attrs([['stage', task.stage]])}`;
  return inner.length ? `${open}>\n${inner.join('\n')}\n  </task>` : `${open}/>`;
}

function sectionXml(name: SectionName, s: StatusSections, nowIso: string): string {
  switch (name) {
    case 'task':
      return s.task ? taskXml(s.task) : '';
    case 'environment':
      return s.environment ? `  <environment${attrs([['cwd', s.environment.cwd]])}/>` : '';
    case 'tools': {
      if (!s.tools) return '';
      const tools = s.tools.items.map(
        (t) =>
          `    <tool${attrs([
            ['name', t.name],
            ['calls', t.calls],
            ['failures', t.failures],
            [
              'failures-in-a-row',
              (t.consecutive_failures ?? 0) > 1 ? t.consecutive_failures : undefined,
            ],
            ['no-new-results-in-a-row', t.no_new_results],
            ['artifact', t.artifact],
          ])}/>`,
      );
      return `  <tools${attrs([['more', nonZero(s.tools.more)]])}>\n${tools.join('\n')}\n  </tools>`;
    }
    case 'verification': {
      const v = s.verification;
      return v
        ? `  <verification${attrs([
            ['passed', v.passed],
            ['failed', v.failed],
            ['exit-code', v.exit_code],
            ['skipped', v.skipped],
            ['command', v.command],
            ['artifact', v.artifact],
          ])}/>`
        : '';
    }
    case 'budget': {
      const b = s.budget;
      return b
        ? `  <budget${attrs([
            ['tool-calls', b.tool_calls && `${b.tool_calls.left} of ${b.tool_calls.limit} left`],
            ['tokens', b.tokens && `${b.tokens.left} of ${b.tokens.limit} left`],
          ])}/>`
        : '';
    }
    case 'checkpoint': {
      const c = s.checkpoint;
      return c
        ? `  <checkpoint${attrs([
            ['seq', c.seq],
            ['age', ageText(c.at, nowIso)],
            ['summary', c.summary],
          ])}/>`
        : '';
    }
    case 'permissions': {
      const p = s.permissions;
      return p
        ? `  <permissions${attrs([
            ['requested', nonZero(p.requested)],
            ['granted', nonZero(p.granted)],
            ['denied', nonZero(p.denied)],
            ['last-denied', p.last_denied],
          ])}/>`
        : '';
    }
    case 'signals': {
      if (!s.signals) return '';
      const items = s.signals.map(
        (sig) =>
          `    <signal${attrs([
            ['id', sig.id],
            ['level', sig.level],
          ])}>${esc(sig.message)}</signal>`,
      );
      return `  <signals>\n${items.join('\n')}\n  </signals>`;
    }
  }
}

/** Renders a plan as XML. */
export function renderXml(plan: RenderPlan): string {
  const { view } = plan;
  const head = attrs([
    ['source', 'agent-state'],
    ['generated-at', view.generated_at],
    ['seq', view.seq],
    ['kind', plan.kind === 'full' ? undefined : plan.kind],
    ['epoch', plan.epoch ?? undefined],
  ]);
  if (plan.kind === 'cleared') return `<agent-status${head}>${CLEARED_MESSAGE}</agent-status>`;
  const body = plan.shown
    .map((name) => sectionXml(name, view.sections, view.generated_at))
    .filter(Boolean);
  for (const name of plan.removed)
    body.push(`  <${name} removed="true">Earlier ${name} status no longer applies.</${name}>`);
  const note =
    plan.kind === 'replace'
      ? '  <note>This status replaces every earlier agent-status.</note>'
      : plan.kind === 'delta'
        ? '  <note>Only these sections changed; the rest of the baseline still applies.</note>'
        : null;
  if (note) body.unshift(note);
  return `<agent-status${head}>\n${body.join('\n')}\n</agent-status>`;
}
