// What every importer produces from another tool's files: one plan of what to write, before
// anything is written. Parsers are pure (file texts in, an ImportSource out) and throw
// InvalidStateError naming file:line and what was expected.
import { InvalidStateError } from '../errors.js';
import { parseYaml } from '../state/yaml-doc.js';
import type { PlanStatus } from '../types.js';

export const IMPORT_FORMATS = ['taskmaster', 'beads', 'gsd', 'memory-bank', 'spec-kit'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A file as read: its text and how messages name it. */
export interface TextFile {
  text: string;
  display: string;
}

/** Reads a file of the tool by its name (relative to its main file); undefined when absent. */
export type Reader = (name: string) => TextFile | undefined;

/** One item of the other tool, with its own id as `source` and its needs as sources too. */
export interface ImportItem {
  source: string;
  title: string;
  status: PlanStatus;
  needs: string[];
}

/** Everything an import would write. */
export interface ImportSource {
  format: ImportFormat;
  files: string[];
  goal?: string;
  nextAction?: string;
  memory: { durable: string[]; working: string[] };
  items: ImportItem[];
  /** What was read but not imported, and why. */
  warnings: string[];
}

/** A function that refuses input of `file` at a line, with what was expected and `hint`. */
export function refuser(file: string, hint: string) {
  return (line: number | undefined, message: string): never => {
    throw new InvalidStateError(message, { location: { file, line }, hint });
  };
}

/** Maps a status of the other tool, or fails with a message listing those it knows. */
export function mapStatus(
  statuses: Record<string, PlanStatus>,
  value: unknown,
  what: string,
  fail: (message: string) => never,
): PlanStatus {
  const status = typeof value === 'string' ? statuses[value] : undefined;
  const known = Object.keys(statuses).join(', ');
  return status ?? fail(`${what}: status ${JSON.stringify(value)} is not one of ${known}`);
}

/** Parses JSON text, or refuses it at the line where it breaks. */
export function parseJson(text: string, file: string, line = 1): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message)?.[1];
    // Node 20 gives no position for some errors; the YAML parser (JSON is YAML) finds the place.
    const where =
      at === undefined
        ? (parseYaml(text, file).problems[0]?.location.line ?? 1)
        : text.slice(0, Number(at)).split('\n').length;
    const bad = refuser(file, 'fix the JSON at that line, then import again');
    return bad(line + where - 1, `not valid JSON (${message.replace(/ in JSON at .*$/, '')})`);
  }
}

/** A plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An empty ImportSource to fill (the caller lists the files it read). */
export function emptySource(format: ImportFormat): ImportSource {
  return { format, files: [], memory: { durable: [], working: [] }, items: [], warnings: [] };
}
