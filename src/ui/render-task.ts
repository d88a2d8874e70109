// The task half of the page (pure): goal layer, state-file problems, now, signals, plan, markers.
import { markup, inlineCode, type Html } from './html.js';
import type { UiModel, UiPlanItem, UiStep } from './model.js';
import { badge, chips, count, list, section, table, time } from './render-parts.js';
import { plural } from '../text/plural.js';

/** The goal anchor, Constraints, Forbidden zones, non-goals and success criteria. */
export function renderGoal(model: UiModel): Html {
  const goal = model.goal;
  if (!goal)
    return markup`<header id="goal">
      <h1>Task</h1>
      <p class="anchor muted">goals.md could not be read (see the problems below).</p>
    </header>`;
  // The globs are the backtick spans of each entry: shown where the rule names them.
  const limits: [string, readonly string[], string, string?][] = [
    ['Constraints', goal.constraints, 'constraints'],
    ['Forbidden', goal.forbidden.map((f) => f.text), 'forbidden', 'forbidden-glob'],
    ['Non-goals', goal.non_goals, 'non-goals'],
    ['Success criteria', goal.success_criteria, 'criteria'],
  ];
  return markup`<header id="goal">
    <h1>${goal.title || 'Task'}</h1>
    <p class="anchor">
      ${goal.anchor || markup`<span class="muted">No goal anchor: set one with <code>agent-state goal "..."</code></span>`}
    </p>
    <div class="limits">
      ${limits.map(
        ([title, items, cls, code]) =>
          markup`<div>
            <h3>${title}</h3>
            ${list(items, 'none written', cls, code)}
          </div>`,
      )}
    </div>
  </header>`;
}

/** State files that do not parse or validate, each with its fix. */
export function renderProblems(model: UiModel): Html {
  const warnings = model.warnings.length
    ? markup`<details>
        <summary>${plural(model.warnings.length, 'warning')}</summary>
        ${list(model.warnings, '')}
      </details>`
    : '';
  if (model.problems.length === 0)
    return markup`<div id="problems">
      ${warnings ? markup`<section class="warnings">${warnings}</section>` : ''}
    </div>`;
  return markup`<div id="problems">
    <section class="problems">
      <h2>The state files have problems ${count(model.problems.length, 'problem')}</h2>
      <p>
        What depends on them is missing below. Fix them, then <code>agent-state validate</code>.
      </p>
      <ul>
        ${model.problems.map((p) => markup`<li><code>${p.at}</code> ${p.message}${p.hint ? markup` — fix: ${inlineCode(p.hint)}` : ''}</li>`)}
      </ul>
      ${warnings}
    </section>
  </div>`;
}

function renderStep(step: UiStep | null): Html {
  if (!step) return markup`<p class="muted">No current step.</p>`;
  return markup`<dl class="step">
    <dt>Step</dt>
    <dd>${step.id ? markup`<code>${step.id}</code> ` : ''}${step.objective ?? ''}</dd>
    ${
      step.expected_output
        ? markup`<dt>Expected</dt>
            <dd>${step.expected_output}</dd>`
        : ''
    }
    <dt>Allowed tools</dt>
    <dd class="allowed-tools">${chips(step.allowed_tools, 'allow', 'any')}</dd>
    <dt>Denied tools</dt>
    <dd class="denied-tools">${chips(step.denied_tools, 'deny')}</dd>
    <dt>File scopes</dt>
    <dd class="file-scopes">${chips(step.file_scopes, '', 'the whole tree (minus Forbidden)')}</dd>
    ${
      step.constraints.length
        ? markup`<dt>Constraints</dt>
            <dd>${list(step.constraints, '')}</dd>`
        : ''
    }
  </dl>`;
}

/** Stage, next action, current step with its limits, reminders and memory. */
export function renderNow(model: UiModel): Html {
  const now = model.now;
  const at = model.generated_at;
  const reminders = now.reminders.map((r) => r.text);
  const previous = now.recent_next_actions.length
    ? markup`<ul>
        ${now.recent_next_actions.map((r) => markup`<li>${r.text} ${time(r.at, at)}</li>`)}
      </ul>`
    : markup`<p class="muted">none</p>`;
  return section(
    'now',
    'Now',
    now.stage ? badge(now.stage, 's-running') : '',
    markup`<div class="next-action">
        ${now.next_action ?? markup`<span class="muted">No next action: set one with <code>agent-state next "..."</code></span>`}
      </div>
      <div class="grid">
        <div>
          <h3>Current step</h3>
          ${renderStep(now.step)}
        </div>
        <div>
          <h3>Reminders for the next boot</h3>
          ${list(reminders, 'none')}
          <h3>Previous next actions</h3>
          ${previous}
        </div>
        <div>
          <h3>Durable memory</h3>
          ${list(now.memory.durable, 'none')}
          <h3>Working memory</h3>
          ${list(now.memory.working, 'none')}
        </div>
      </div>`,
  );
}

/** The control signals, most urgent first, each a fact and what to do. */
export function renderSignals(model: UiModel): Html {
  const body = model.signals.length
    ? markup`${model.signals.map((s) => markup`<div class="signal" data-id="${s.id}" data-level="${s.level}">${badge(s.level, s.level)} <span class="message">${inlineCode(s.message)}</span></div>`)}`
    : markup`<p class="muted">
        No active signals: nothing in the counts calls for a change of course.
      </p>`;
  return section('signals', 'Signals', count(model.signals.length, 'active signal'), body);
}

function markerCell(item: UiPlanItem, now: string): Html {
  const m = item.marker;
  if (!m)
    return item.status === 'done'
      ? markup`<span class="muted">no marker</span>`
      : markup`<span class="muted">—</span>`;
  if (m.state === 'valid')
    return markup`<span class="marker valid"
      >${badge('verified', 'm-valid')}
      <span class="muted"
        >${plural(m.files, 'file')}, ${time(m.at, now)}</span
      ></span
    >`;
  if (m.state === 'unverifiable')
    return markup`<span class="marker unverifiable"
      >${badge('unverifiable', 'm-unverifiable')}
      <span class="muted">${m.problem ?? 'no files recorded'}</span></span
    >`;
  return markup`<span class="marker stale"
    >${badge('STALE', 'm-stale')}
    ${m.changed.map((c) => markup`<code class="changed-file">${c.path}</code> <span class="muted">${c.reason}</span> `)}</span
  >`;
}

/** The plan: every item with its status, owner and completion marker. */
export function renderPlan(model: UiModel): Html {
  const empty = markup`<p class="muted">No plan yet: <code>agent-state plan add "..."</code></p>`;
  if (model.plan.length === 0) return section('plan', 'Plan', '', empty);
  const done = model.plan.filter((i) => i.status === 'done').length;
  const rows = model.plan.map(
    (i) =>
      markup`<tr
        class="plan-item${i.current ? ' current' : ''}"
        data-id="${i.id}"
        data-status="${i.status}"
      >
        <td><code>${i.id}</code></td>
        <td class="title">
          ${i.title}${i.note ? markup`<div class="muted">${i.note}</div>` : ''}${i.depends_on.length ? markup`<div class="muted">after ${i.depends_on.join(', ')}</div>` : ''}
        </td>
        <td class="status">${badge(i.status, `s-${i.status}`)}</td>
        <td class="owner">${i.owner ?? markup`<span class="muted">—</span>`}</td>
        <td>${markerCell(i, model.generated_at)}</td>
      </tr>`,
  );
  return section(
    'plan',
    'Plan',
    markup`<span class="count">${done} of ${model.plan.length} done</span>`,
    table('', ['id', 'step', 'status', 'owner', 'completion marker'], rows),
  );
}
