// "Did you mean ...?": commander appends it on a second line, which one-line error reports would
// drop, so it becomes the fix of a UsageError instead.
import type { CommanderError } from 'commander';
import { UsageError } from '../errors.js';

const SUGGESTION = /\n\(Did you mean (.+)\?\)\s*$/;

/** The error to report for a commander error: with its suggestion as the fix, when it has one. */
export function withSuggestion(error: CommanderError): Error {
  const match = SUGGESTION.exec(error.message);
  if (!match || !/^commander\.unknown(Command|Option)$/.test(error.code)) return error;
  const message = error.message.slice(0, match.index).replace(/^error:\s*/, '');
  const names = match[1]!.split(/, | or /).map((name) => `\`${name}\``);
  return new UsageError(message, {
    hint: `did you mean ${names.join(' or ')}? See \`agent-state --help\``,
  });
}
