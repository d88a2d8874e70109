// What happened (pure): the timeline, newest first, filtered by type; evidence, bodies on demand.
import { markup, type Html } from './html.js';
import type { UiEvent, UiModel } from './model.js';
import { badge, count, section, table, time, type RenderOptions } from './render-parts.js';
import { plural } from '../text/plural.js';

/** The filter's choices: a family (`tool.*`) or one type. */
export const TIMELINE_TYPES: readonly { value: string; label: string }[] = [
  { value: '', label: 'every type' },
  { value: 'tool.*', label: 'tool calls (tool.*)' },
  { value: 'file.modified', label: 'file edits' },
  { value: 'permission.*', label: 'permissions and Forbidden hits' },
  { value: 'error', label: 'errors' },
  { value: 'verification.finished', label: 'test runs' },
  { value: 'boot', label: 'boots' },
  { value: 'compaction', label: 'compactions' },
  { value: 'checkpoint.created', label: 'checkpoints' },
  { value: 'task.*', label: 'goal and next action (task.*)' },
  { value: 'plan.*', label: 'plan changes (plan.*)' },
  { value: 'step.*', label: 'steps (step.*)' },
  { value: 'evidence.added', label: 'evidence' },
  { value: 'git.*', label: 'git (git.*)' },
  { value: 'cwd.changed', label: 'working directory' },
  { value: 'budget.set', label: 'budgets' },
];

/** The rows of the timeline table. */
export function renderTimelineRows(events: readonly UiEvent[], now: string): Html {
  return markup`${events.map(
    (e) =>
      markup`<tr class="event" data-seq="${e.seq}" data-type="${e.type}" data-kind="${e.kind}">
        <td><span class="mono">#${e.seq}</span><br />${time(e.at, now)}</td>
        <td>${badge(e.type, `k-${e.kind}`)}</td>
        <td class="muted">${e.actor}</td>
        <td>
          <span class="summary">${e.summary}</span>
          <details class="raw" data-key="event-${e.seq}">
            <summary>as stored</summary>
            <pre>${e.raw}</pre>
          </details>
        </td>
      </tr>`,
  )}`;
}

/** The timeline section; the live page pages and filters it through the server. */
export function renderTimeline(model: UiModel, options: RenderOptions): Html {
  const t = model.timeline;
  const selected = t.types.join(',');
  const choices = TIMELINE_TYPES.map(
    (c) =>
      markup`<option value="${c.value}" ${c.value === selected ? markup` selected` : ''}>
        ${c.label}
      </option>`,
  );
  const oldest = t.events[t.events.length - 1]?.seq ?? 0;
  const events = table(
    '',
    ['when', 'type', 'actor', 'what happened'],
    renderTimelineRows(t.events, model.generated_at),
    markup` id="timeline-rows" data-more="${t.more ? 'yes' : 'no'}" data-oldest="${oldest}"`,
  );
  const beyond =
    options.mode === 'static' && t.more
      ? markup`<p class="muted">
          Older events are not in this report: <code>agent-state events --limit 1000</code> lists
          them.
        </p>`
      : '';
  return section(
    'timeline',
    'Timeline',
    markup`<span class="count">newest first</span>`,
    markup`<div class="controls">
        <label
          >Show
          <select id="timeline-type">
            ${choices}
          </select></label
        ><span id="timeline-info" class="muted"></span>
      </div>
      ${events}
      ${t.events.length === 0 ? markup`<p class="muted" id="timeline-empty">No events${t.types.length ? ' of this type' : ''}.</p>` : ''}
      <p>
        <button
          id="timeline-older"
          type="button"
          ${t.more || options.mode === 'static' ? '' : markup` hidden`}
        >
          Older events
        </button>
      </p>
      ${beyond}`,
  );
}

/** Evidence entries, newest first: the headline, then the body and raw artifacts on demand. */
export function renderEvidence(model: UiModel, options: RenderOptions): Html {
  const none = markup`<p class="muted">
        No evidence yet: <code>agent-state evidence add --kind note --summary "..."</code>
      </p>`;
  if (model.evidence.length === 0) return section('evidence', 'Evidence', '', none);
  const items = model.evidence.map((e) => {
    const refs = e.refs.map(
      (r) =>
        markup`<li>
          ${r.present ? markup`<a href="${options.artifactHref(r.path)}">${r.path}</a>` : markup`<code>${r.path}</code> <span class="muted">(not on this machine)</span>`}
          <span class="muted mono"
            >${r.sha256.slice(0, 19)}…${r.bytes === null ? '' : ` ${r.bytes} bytes`}</span
          >
        </li>`,
    );
    const notes = [
      e.redactions ? `${plural(e.redactions, 'secret')} redacted` : '',
      e.truncated_bytes ? `${e.truncated_bytes} bytes cut` : '',
    ].filter(Boolean);
    return markup`<details class="evidence-entry" data-id="${e.id}" data-key="evidence-${e.id}">
      <summary>
        <code>${e.id}</code> ${badge(e.kind, '')}
        <span class="headline">${e.summary}</span> ${time(e.at, model.generated_at)}
      </summary>
      <pre class="body">${e.body || '(no body)'}</pre>
      <div class="muted">${e.file}${notes.length ? ` · ${notes.join(' · ')}` : ''}</div>
      ${
        refs.length
          ? markup`<h3>Raw artifacts</h3>
              <ul>
                ${refs}
              </ul>`
          : ''
      }
    </details>`;
  });
  return section(
    'evidence',
    'Evidence',
    markup`${count(model.evidence.length, 'entry', 'entries')}
      <span class="count">as stored (already redacted)</span>`,
    markup`${items}`,
  );
}
