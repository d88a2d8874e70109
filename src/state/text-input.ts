// Checks free text that a command is about to store, so that a mistake is a UsageError naming the
// fix rather than a schema failure of the whole file.
import { UsageError } from '../errors.js';

/** The schema's limit on every free-text field of progress.yaml. */
export const MAX_TEXT = 2000;

/**
 * Returns `value` with its ends trimmed; throws when it is longer than MAX_TEXT (`tooLong`: the
 * hint), or empty where `example` shows how to write it.
 */
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
