// The page as HTML (pure): one document, style and script inline, for the live page and the report
// file alike; the live page also gets each section on its own. Its Content-Security-Policy allows
// only that style and script (by hash) and, live, the server that sent it: a report cannot reach
// the network even if some text slipped through the escaping.
import { createHash } from 'node:crypto';
import { markup, raw, type Html } from './html.js';
import type { UiModel, UiTimeline } from './model.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { renderEvidence, renderTimeline, renderTimelineRows } from './render-history.js';
import { shortTime, type RenderOptions } from './render-parts.js';
import { renderBoot, renderCheckpoints, renderDrift } from './render-recovery.js';
import { renderStatus } from './render-status.js';
import { renderGoal, renderNow, renderPlan, renderProblems, renderSignals } from './render-task.js';

export type { RenderOptions } from './render-parts.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const STYLE_HASH = hash(PAGE_STYLE);
const SCRIPT_HASH = hash(PAGE_SCRIPT);

/** The Content-Security-Policy of a page (also sent as a header by the server). */
export function contentSecurityPolicy(mode: RenderOptions['mode']): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `script-src ${SCRIPT_HASH}`,
    ...(mode === 'live' ? ["connect-src 'self'"] : []),
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

// Ages ("3 min ago") change with the clock, not with the state: the live page leaves them to
// its script, so that a section's HTML changes only when its facts do.
const forMode = (model: UiModel, options: RenderOptions): UiModel =>
  options.mode === 'live' ? { ...model, generated_at: '' } : model;

const SECTION_HTML = {
  goal: renderGoal,
  problems: renderProblems,
  now: renderNow,
  signals: renderSignals,
  plan: renderPlan,
  status: renderStatus,
  evidence: renderEvidence,
  drift: renderDrift,
  boot: renderBoot,
  checkpoints: renderCheckpoints,
} satisfies Record<string, (model: UiModel, options: RenderOptions) => Html>;

export type SectionId = keyof typeof SECTION_HTML;

/** The sections a live update replaces, by element id, in page order (the timeline aside). */
export const SECTION_IDS = Object.keys(SECTION_HTML) as readonly SectionId[];

/** Every section's HTML by id (what a live update carries). */
export function renderSections(model: UiModel, options: RenderOptions): Record<SectionId, string> {
  const view = forMode(model, options);
  const html = SECTION_IDS.map((id) => [id, SECTION_HTML[id](view, options).text]);
  return Object.fromEntries(html) as Record<SectionId, string>;
}

/** A timeline page as the live page inserts it: the rows, whether older ones exist, the oldest seq. */
export function renderTimelinePage(timeline: UiTimeline, options: RenderOptions, now: string) {
  return {
    rows: renderTimelineRows(timeline.events, options.mode === 'live' ? '' : now).text,
    more: timeline.more,
    oldest: timeline.events[timeline.events.length - 1]?.seq ?? 0,
  };
}

/** The whole document (the style and the script byte for byte as their CSP hashes say). */
export function renderPage(model: UiModel, options: RenderOptions): string {
  const view = forMode(model, options);
  const s = (id: SectionId) => SECTION_HTML[id](view, options);
  const title = model.goal?.anchor || model.goal?.title || model.root;
  const state =
    options.mode === 'live'
      ? markup`<span id="live" class="off">connecting…</span>`
      : markup`<span id="live">report written ${shortTime(model.generated_at)}; ages are as of then</span>`;
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          http-equiv="Content-Security-Policy"
          content="${contentSecurityPolicy(options.mode)}"
        />
        <meta name="referrer" content="no-referrer" />
        <link rel="icon" href="data:," />
        <meta name="generator" content="${model.generator}" />
        <title>${title} · agent-state</title>
        <style>${raw(PAGE_STYLE)}</style>
      </head>
      <body
        data-mode="${options.mode}"
        data-seq="${model.seq}"
        data-revision="${model.revision ?? ''}"
      >
        <main>
          ${s('goal')}
          <div class="controls">
            <span class="muted">Task Context of <code>${model.root}</code> · read-only</span
            >${state}
          </div>
          ${s('problems')}${s('now')}${s('signals')}${s('plan')}${s('status')}
          ${renderTimeline(view, options)}
          ${s('evidence')}${s('drift')}${s('boot')}${s('checkpoints')}
          <footer>
            ${model.generator} · event #${model.seq} · progress.yaml revision
            ${model.revision ?? '?'} · generated ${model.generated_at}
          </footer>
        </main>
        <script>${raw(PAGE_SCRIPT)}</script>
      </body>
    </html> `.text;
}
