// What a recovery needs (pure): drift with each finding's fix, what the last boot left out (and
// the command that shows it), the checkpoints with the git commands that bring one back.
import { markup, inlineCode, type Html } from './html.js';
import type { UiModel } from './model.js';
import { command, count, list, section, table, time } from './render-parts.js';

/** Drift since the last checkpoint, and what verify says to do about it. */
export function renderDrift(model: UiModel): Html {
  const d = model.drift;
  const at = model.generated_at;
  // What verify found, each with its fix: shown with or without a checkpoint to compare with.
  const findings = d.findings.length
    ? markup`<ul class="findings">
        ${d.findings.map(
          (f) =>
            markup`<li>
              ${inlineCode(f.message)}
              <div class="muted">fix: ${inlineCode(f.fix)}</div>
            </li>`,
        )}
      </ul>`
    : '';
  const none = markup`<p class="muted">
          No checkpoint yet: nothing to compare the tree with (<code>agent-state checkpoint</code>
          records one).
        </p>
        ${findings}`;
  if (!d.checkpoint_at) return section('drift', 'Drift since the last checkpoint', '', none);
  const head = d.head
    ? markup`<h3>Commits</h3>
        <p>
          <code>${d.head.from?.slice(0, 12) ?? '(none)'}</code> →
          <code>${d.head.to?.slice(0, 12) ?? '(none)'}</code>
        </p>
        ${
          d.head.commits === null
            ? markup`<p class="muted">to an unrelated commit</p>`
            : list(
                d.head.commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`),
                'no new commits',
              )
        }`
    : '';
  const files = (label: string, items: { path: string; change: string }[]) =>
    items.length
      ? markup`<h3>${label}</h3>
          <ul class="drift-files">
            ${items.map((f) => markup`<li><code>${f.path}</code> <span class="muted">${f.change}</span></li>`)}
          </ul>`
      : '';
  const listed = (label: string, items: string[]) =>
    items.length
      ? markup`<h3>${label}</h3>
          ${list(items, '')}`
      : '';
  return section(
    'drift',
    'Drift since the last checkpoint',
    markup`<span class="count">${time(d.checkpoint_at, at)}</span>`,
    markup`${d.drifted || d.findings.length ? '' : markup`<p>No drift: the tree is as the checkpoint recorded it.</p>`}
    ${findings}
    ${head}${
      d.branch
        ? markup`<h3>Branch</h3>
            <p>${d.branch.from ?? '(detached)'} → ${d.branch.to ?? '(detached)'}</p>`
        : ''
    }
    ${files('Files', d.files)}${files('Key files', d.key_files)}
    ${listed(
      'Runtime',
      d.runtime.map((r) => `${r.field}: ${r.from} → ${r.to}`),
    )}
    ${listed('Not listed file by file', d.unlisted)}`,
  );
}

/** The last boot: its level, and what it left out with the command that shows each part. */
export function renderBoot(model: UiModel): Html {
  const b = model.boot;
  const none = markup`<p class="muted">No boot recorded in the event log.</p>`;
  if (!b) return section('boot', 'Last boot', '', none);
  const omitted =
    b.omitted === null
      ? markup`<p class="muted">
          This boot did not record what it left out (it predates that). What a boot would leave out
          now: ${command('agent-state boot --dry-run --json')} (its <code>omitted</code> list).
        </p>`
      : b.omitted.length === 0
        ? markup`<p>It left nothing out: the agent read the whole state.</p>`
        : table(
            'omitted',
            ['left out', 'how many', 'which', 'shown by'],
            b.omitted.map(
              (o) =>
                markup`<tr>
                    <td>${o.kind.replace(/_/g, ' ')}</td>
                    <td>${o.count}</td>
                    <td>
                      ${o.ids.length ? markup`<code>${o.ids.join(', ')}</code>${o.count > o.ids.length ? ' …' : ''}` : ''}
                    </td>
                    <td>${command(o.how)}</td>
                  </tr>`,
            ),
          );
  return section(
    'boot',
    'Last boot',
    markup`<span class="count"
      >#${b.seq} · level ${b.level ?? '?'}${b.source ? ` after ${b.source}` : ''} ·
      ${time(b.at, model.generated_at)}</span
    >`,
    omitted,
  );
}

/** The checkpoints, newest first, with the git commands that restore one. */
export function renderCheckpoints(model: UiModel): Html {
  const none = markup`<p class="muted">No checkpoint in the event log yet.</p>`;
  if (model.checkpoints.length === 0) return section('checkpoints', 'Checkpoints', '', none);
  const rows = model.checkpoints.map(
    (c) =>
      markup`<tr class="checkpoint" data-seq="${c.seq}">
        <td><span class="mono">#${c.seq}</span><br />${time(c.at, model.generated_at)}</td>
        <td>
          ${c.summary ?? ''}${c.evidence ? markup`<div class="muted">evidence ${c.evidence}</div>` : ''}
        </td>
        <td>
          ${c.commit ? markup`<code>${c.commit.slice(0, 12)}</code>` : c.head ? markup`<span class="muted">HEAD</span> <code>${c.head.slice(0, 12)}</code>` : markup`<span class="muted">not in git</span>`}
        </td>
        <td>
          ${
            c.restore.length
              ? markup`${c.restore.map(
                  (r) =>
                    markup`<div>
                      ${command(r.command)}
                      <div class="muted">${inlineCode(r.what)}</div>
                    </div>`,
                )}`
              : markup`<span class="muted"
                  >nothing to restore from: record checkpoints with <code>--commit</code></span
                >`
          }
        </td>
      </tr>`,
  );
  return section(
    'checkpoints',
    'Checkpoints',
    count(model.checkpoints.length, 'checkpoint'),
    table('', ['when', 'summary', 'commit', 'restore with'], rows),
  );
}
