// HTML built from untrusted text. The state holds whatever agents and tools wrote — markup,
// terminal escapes, bidi overrides — so every value is escaped where it is inserted, and a value
// is only ever left alone when it is an `Html` fragment this module built. Control characters go
// through safeText, the one place that makes them visible everywhere text leaves the tool.
import { safeText } from '../text/safe-text.js';

/** A fragment of HTML that is safe to insert as it is (built by `markup` or `raw`). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and quoted attribute values; control characters made visible. */
export const escapeHtml = (text: string): string =>
  safeText(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Marks trusted markup (only for strings this package wrote, never for state text). */
export const raw = (markup: string): Html => new Html(markup);

function part(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template tag: interpolated values are escaped unless they are `Html` (arrays are joined). */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Text with its `backtick spans` as <code> (the one bit of Markdown goals.md and advice use). */
export function inlineCode(text: string, codeClass = ''): Html {
  const parts = text.split(/`([^`\n]+)`/);
  const cls = codeClass ? ` class="${escapeHtml(codeClass)}"` : '';
  return new Html(
    parts
      .map((p, i) => (i % 2 === 1 ? `<code${cls}>${escapeHtml(p)}</code>` : escapeHtml(p)))
      .join(''),
  );
}
