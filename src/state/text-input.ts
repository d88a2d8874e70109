// Checks free text that a command is about to store, so that a mistake is a UsageError naming the
// fix rather than a schema failure of the whole file.
import { UsageError } from '../errors.js';

/** The schema's limit on every free-text field of progress.yaml. */
export const MAX_TEXT = 2000;

/** `value` trimmed; throws when over MAX_TEXT (hint `tooLong`), or empty given an `example` */
export function requireText(
  value: string,
  what: string,
  example?: string,
  tooLong = 'keep it short; put long material in evidence (agent-state evidence add)',
): string {
  const text = value.trim();
  if (text === '' && example !== undefined)
    throw new UsageError(`${what} is empty`, { hint: `write it out: ${example}` });
  if (text.length > MAX_TEXT)
    throw new UsageError(`${what} has ${text.length} characters, over the limit of ${MAX_TEXT}`, {
      hint: tooLong,
    });
  return text;
}
