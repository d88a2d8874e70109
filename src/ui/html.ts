// HTML built from untrusted text. The state holds whatever agents and tools wrote — markup,
// terminal escapes, bidi overrides — so every value is escaped where it is inserted, and a value
// is only ever left alone when it is an `Html` fragment this module built.

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

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and
// isolates that can make text read differently from what it is ("Trojan source").
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A control character as something a reader can see: ␛ for ESC, \u202e for a bidi override. */
export function visibleControl(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text made safe for HTML content and quoted attribute values; control characters made visible. */
export function escapeHtml(text: string): string {
  return text.replace(CONTROLS, visibleControl).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Marks trusted markup (only for strings this package wrote, never for state text). */
export function raw(markup: string): Html {
  return new Html(markup);
}

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
