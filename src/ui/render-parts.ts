// Small pieces every section of the page is built from (pure): times, lists, chips, badges.
import { markup, inlineCode, type Html } from './html.js';
import { plural } from '../text/plural.js';

/** How the page links to things that live outside it. */
export interface RenderOptions {
  /** `live`: served by `agent-state ui`; `static`: a report file. */
  mode: 'live' | 'static';
  /** The href of a raw artifact (a repository-relative path). */
  artifactHref(path: string): string;
}

/** "3 min ago" relative to `now` (both ISO times); empty for a missing time. */
export function ago(iso: string | null | undefined, now: string): string {
  if (!iso) return '';
  const seconds = Math.round((Date.parse(now) - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 0) return 'in the future';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** A time as `2026-01-31 12:00:00Z`. */
export const shortTime = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** A time as `shortTime` shows it, with its age; the live page keeps the age current. */
export function time(iso: string | null | undefined, now: string): Html {
  if (!iso) return markup`<span class="muted">never</span>`;
  return markup`<time datetime="${iso}">${shortTime(iso)}</time>
    <span class="ago" data-at="${iso}">${ago(iso, now)}</span>`;
}

/** A bullet list (its code spans of class `code`), or a muted sentence when empty. */
export function list(items: readonly string[], empty: string, cls = '', code = ''): Html {
  if (items.length === 0) return markup`<p class="muted">${empty}</p>`;
  return markup`<ul class="${cls}">
    ${items.map((i) => markup`<li>${inlineCode(i, code)}</li>`)}
  </ul>`;
}

/** Inline chips (tool names, globs). */
export function chips(items: readonly string[], cls: string, empty = 'none'): Html {
  if (items.length === 0) return markup`<span class="muted">${empty}</span>`;
  return markup`${items.map((i) => markup`<span class="chip ${cls}">${i}</span>`)}`;
}

/** A coloured word: `s-done`, `m-stale`, `k-failure`, `stop`, `warn`. */
export const badge = (text: string, cls: string): Html =>
  markup`<span class="badge ${cls}">${text}</span>`;

/** A command to copy. */
export const command = (text: string): Html => markup`<code class="cmd">${text}</code>`;

/** A count after a section title. */
export const count = (n: number, word: string, pluralWord = `${word}s`): Html =>
  markup`<span class="count">${plural(n, word, pluralWord)}</span>`;

/** A section of the page, found by its id in live updates. */
export function section(id: string, title: string, extra: Html | string, body: Html): Html {
  return markup`<section id="${id}">
    <h2>${title} ${extra}</h2>
    ${body}
  </section>`;
}

/** A table: a header row of `heads`, then `rows`; `tbody` holds any attributes of its <tbody>. */
export function table(
  cls: string,
  heads: readonly string[],
  rows: unknown,
  tbody: Html | string = '',
): Html {
  return markup`<table${cls ? markup` class="${cls}"` : ''}>
    <thead>
      <tr>${heads.map((h) => markup`<th>${h}</th>`)}</tr>
    </thead>
    <tbody${tbody}>
      ${rows}
    </tbody>
  </table>`;
}
