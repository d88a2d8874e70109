// The status bar's snapshot as a section of the page (pure).
import { markup, type Html } from './html.js';
import type { UiModel } from './model.js';
import { badge, chips, section, table, time, type RenderOptions } from './render-parts.js';

function budgetLine(b: { limit: number; used: number } | null, unit: string): Html | string {
  if (!b) return '';
  return markup`<dt>Budget</dt>
    <dd>${b.limit - b.used} of ${b.limit} ${unit} left</dd>`;
}

/** The status snapshot folded from the event log. */
export function renderStatus(model: UiModel, options: RenderOptions): Html {
  const s = model.status;
  const at = model.generated_at;
  const v = s.verification;
  const tests = v
    ? markup`${v.passed === null ? `exit ${v.exit_code ?? '?'}` : `${v.passed} passed, ${v.failed ?? 0} failed`}
      ${v.failed || (v.passed === null && v.exit_code !== 0) ? badge('failing', 'k-failure') : badge('passing', 'k-test')}
      ${v.command ? markup`<code>${v.command}</code>` : ''} ${time(v.at, at)}
      ${v.artifact ? markup`<a href="${options.artifactHref(v.artifact)}">output</a>` : ''}`
    : markup`<span class="muted">no test run recorded</span>`;
  const tools = s.tools.length
    ? table(
        'tools',
        ['tool', 'calls', 'failures', 'failures in a row', 'found nothing new in a row'],
        s.tools.map(
          (t) =>
            markup`<tr>
                <td><code>${t.name}</code></td>
                <td>${t.calls}</td>
                <td>${t.failures}</td>
                <td>${t.consecutive_failures}</td>
                <td>${t.no_new_results}</td>
              </tr>`,
        ),
      )
    : markup`<p class="muted">No tool calls recorded.</p>`;
  const p = s.permissions;
  return section(
    'status',
    'Status',
    markup`<span class="count">through event #${model.seq}</span>`,
    markup`<div class="grid">
        <dl>
          <dt>Tests</dt>
          <dd>${tests}</dd>
          <dt>Tool calls</dt>
          <dd>${s.tool_calls} (${s.tool_calls_since_checkpoint} since the checkpoint)</dd>
          ${budgetLine(s.budget.tool_calls, 'tool calls')}${budgetLine(s.budget.tokens, 'tokens')}
          <dt>Checkpoint</dt>
          <dd>
            ${s.checkpoint ? markup`${s.checkpoint.summary ?? ''} ${time(s.checkpoint.at, at)}` : markup`<span class="muted">none yet</span>`}
          </dd>
          <dt>Permissions</dt>
          <dd>
            ${p.requested} requested, ${p.granted} granted, ${p.denied}
            denied${p.last_denied ? markup`<div class="muted">last denied: ${p.last_denied}</div>` : ''}
          </dd>
        </dl>
        <dl>
          <dt>Working dir</dt>
          <dd>${s.cwd ?? markup`<span class="muted">the root</span>`}</dd>
          <dt>Boots</dt>
          <dd>${s.boots} (${s.boots_since_progress} since the last progress)</dd>
          <dt>Compactions</dt>
          <dd>${s.compactions}</dd>
          <dt>Errors</dt>
          <dd>
            ${s.errors.count}${s.errors.last ? markup`<div class="muted">last: ${s.errors.last}</div>` : ''}
          </dd>
          <dt>Interrupts</dt>
          <dd>${s.interrupts}</dd>
          ${
            s.git
              ? markup`<dt>git</dt>
                  <dd>
                    ${s.git.kind} ${s.git.branch ?? ''} ${s.git.head?.slice(0, 12) ?? ''}
                    ${time(s.git.at, at)}
                  </dd>`
              : ''
          }
          <dt>Events</dt>
          <dd>${s.events}${s.first_at ? markup`, since ${time(s.first_at, at)}` : ''}</dd>
        </dl>
      </div>
      <h3>Tools</h3>
      ${tools}
      <h3>Files modified since the checkpoint (${s.files_modified_count})</h3>
      ${chips(s.files_modified, '', 'none')}`,
  );
}
