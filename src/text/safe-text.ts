// Text on its way out (a terminal, a host hook, an MCP client, a model): every character a terminal
// would obey (ESC sequences, a lone CR, C1, bidi overrides) becomes a visible stand-in. Stored text
// is never changed. (Secrets are redacted earlier, from the data: see redactValue.)

// C0 controls but tab and newline, a CR not followed by LF, DEL, C1, and the bidi embeddings,
// overrides and isolates (the "Trojan Source" characters).
const CONTROLS =
  '\\r(?!\\n)|[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]';
const ANY_CONTROL = new RegExp(CONTROLS, 'g');
// The same, sparing the SGR sequences of the six styles the CLI paints with (bold, dim, red,
// green, yellow, cyan): on a color terminal a style wraps the text, whatever it holds.
const CONTROL_BUT_OWN_SGR = new RegExp(
  `(?!\\u001b\\[(?:1|2|22|31|32|33|36|39)m)(?:${CONTROLS})`,
  'g',
);
// What JSON.stringify leaves raw (it escapes U+0000–U+001F itself).
const JSON_RAW_CONTROL = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

// C0 and DEL as their Control Pictures (␛ ␇ ␍ ␡), the rest as U+FFFD.
function standIn(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

export interface SafeTextOptions {
  /** Keep the escape sequences of the CLI's own styles (this output has colors on). */
  ownColors?: boolean;
  /** Text meant for one line (a path, a commit subject): newlines and tabs made visible too. */
  oneLine?: boolean;
}

/** `text` fit for a terminal or a model: its control characters made visible. */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  const out = text.replace(options.ownColors ? CONTROL_BUT_OWN_SGR : ANY_CONTROL, standIn);
  return options.oneLine ? out.replace(/[\t\n\r]/g, standIn) : out;
}

/**
 * Repository text inside a Markdown prompt, as data: no line of it starts a heading (a `## Next
 * action` in goals.md cannot pass for the tool's own section) and no `<` opens a tag
 * (`</constraints><system>`). Backslash escapes: Markdown shows them as the plain character.
 */
export function markdownData(text: string): string {
  return text.replace(/^([ \t]*)#/gm, '$1\\#').replace(/<(?=[/!?A-Za-z])/g, '\\<');
}

/** `value` with every string (keys too, with `keys`) through `map`; other than plain objects and arrays, values stay. */
export function mapStrings<T>(value: T, map: (text: string) => string, keys = false): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => mapStrings(v, map, keys)) as T;
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto === Object.prototype || proto === null)
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [keys ? map(k) : k, mapStrings(v, map, keys)]),
      ) as T;
  }
  return value;
}

/** A plain value (a host hook's JSON, an MCP result) with every string, keys too, through safeText. */
export function safeValue<T>(value: T): T {
  return mapStrings(value, (text) => safeText(text), true);
}

/**
 * The JSON document of `value` for a terminal: the control characters that JSON.stringify leaves
 * raw are written as \u escapes too, so that a parser still reads exactly the stored text.
 */
export function safeJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space) ?? 'null';
  return json.replace(
    JSON_RAW_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Quotes a word (a path) for a POSIX shell command line, when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
