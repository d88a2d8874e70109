// A FileEdit for a JSON settings file, built from pure transforms of the parsed object. The file
// keeps its own layout; an edit that changes nothing returns the original text untouched.
import { isDeepStrictEqual } from 'node:util';
import { sameJson, type FileEdit } from './file-edits.js';
import { detectJsonStyle, formatJson, parseJsonObject, type JsonObject } from './json-text.js';

export interface JsonEditSpec {
  path: string;
  display: string;
  /** Puts our part in (pure; must not mutate). */
  install(settings: JsonObject): JsonObject;
  /** Takes our part out (pure; must not mutate). */
  remove(settings: JsonObject): JsonObject;
  /** Whether the settings hold our part. */
  holdsOurs(settings: JsonObject): boolean;
}

function rewrite(
  before: string | null,
  display: string,
  transform: (settings: JsonObject) => JsonObject,
): string | null {
  const settings = parseJsonObject(before ?? '', display);
  const next = transform(settings);
  if (isDeepStrictEqual(next, settings)) return before;
  return formatJson(next, detectJsonStyle(before ?? ''));
}

/** The FileEdit of a JSON settings file. */
export function jsonEdit(spec: JsonEditSpec): FileEdit {
  return {
    path: spec.path,
    display: spec.display,
    install: (before) => rewrite(before, spec.display, spec.install),
    remove: (before) => (before === null ? null : rewrite(before, spec.display, spec.remove)),
    holdsOurs: (before) => before !== null && spec.holdsOurs(parseJsonObject(before, spec.display)),
    equivalent: sameJson,
  };
}
