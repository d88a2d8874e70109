// Host settings files are JSON that people edit by hand: parse them with a located error (never a
// stack trace), and write them back in the file's own style (indent, line ending, final newline)
// so that our edits are the only lines that change.
import { InvalidStateError } from '../../errors.js';

/** A JSON object as read from a host settings file. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** How a JSON file is laid out, so a rewrite looks like the original. */
export interface JsonStyle {
  /** The indent unit: spaces or a tab. */
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

/** The style of files we create. */
export const DEFAULT_JSON_STYLE: JsonStyle = { indent: '  ', eol: '\n', finalNewline: true };

/**
 * Reads the layout of existing JSON text: the first indented line decides the indent unit, and
 * JSON on one line stays on one line.
 */
export function detectJsonStyle(text: string): JsonStyle {
  if (text.trim() === '') return DEFAULT_JSON_STYLE;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (!text.trim().includes('\n')) return { indent: '', eol, finalNewline: /\n$/.test(text) };
  const indented = /\n([ \t]+)\S/.exec(text);
  const indent = indented?.[1]?.startsWith('\t') ? '\t' : (indented?.[1] ?? '  ');
  return { indent, eol, finalNewline: /\n$/.test(text) };
}

/** Serializes a value in a style (what `detectJsonStyle` read, or the default). */
export function formatJson(value: JsonValue, style: JsonStyle = DEFAULT_JSON_STYLE): string {
  let text = JSON.stringify(value, null, style.indent);
  if (style.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  return style.finalNewline ? text + style.eol : text;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Parses a settings file that must hold a JSON object (an empty file counts as `{}`); throws
 * InvalidStateError naming file:line:column and the fix, so the file is never rewritten.
 */
export function parseJsonObject(text: string, display: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineAndColumn(text, Number(position[1])) : {};
    throw new InvalidStateError(
      `not valid JSON (${message.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '')})`,
      {
        location: { file: display, ...where },
        hint: 'fix the JSON by hand (comments and trailing commas are not allowed), then run the command again',
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidStateError('must hold a JSON object ({ ... })', {
      location: { file: display, line: 1 },
      hint: 'make the file a JSON object, or delete it to start from an empty one',
    });
  return value as JsonObject;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
