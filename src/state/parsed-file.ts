// The common result of parsing a state file: a value, or every problem found, never a throw
// for bad content (so `validate` can list them all).
import { InvalidStateError, formatLocation } from '../errors.js';
import type { Warning } from '../types.js';
import type { LocatedDocument, Problem } from './yaml-doc.js';

export interface ParsedFile<T> {
  /** The parsed value; undefined when `problems` is not empty. */
  value: T | undefined;
  /** The YAML document (for comment-keeping rewrites); absent for non-YAML files. */
  located?: LocatedDocument;
  problems: Problem[];
  warnings: Warning[];
}

/** Returns the value or throws the first problem as an InvalidStateError (exit 2). */
export function valueOrThrow<T>(parsed: ParsedFile<T>): T {
  const first = parsed.problems[0];
  if (first || parsed.value === undefined) {
    const more =
      parsed.problems.length > 1
        ? ` (and ${parsed.problems.length - 1} more: run \`agent-state validate\`)`
        : '';
    throw new InvalidStateError(`${first?.message ?? 'invalid content'}${more}`, {
      location: first?.location,
      hint: first?.hint,
      details: parsed.problems.map((p) => ({
        at: formatLocation(p.location),
        message: p.message,
        hint: p.hint,
      })),
    });
  }
  return parsed.value;
}
