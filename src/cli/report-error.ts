// Reporting an error on the fast paths (event-cli.ts, boot-cli.ts) exactly as main.ts does: one
// line on stderr `agent-state: <file:line: ><message> (fix: <hint>)`, and the JSON error
// document on stdout with --json.
import { AgentStateError, formatLocation } from '../errors.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
import { safeJson, safeText } from '../text/safe-text.js';

const REPORT_HINT =
  'this is a bug; please report it at https://github.com/agent-state/agent-state/issues with the command you ran and `agent-state --version`';

/** Prints `error` and returns its exit code. */
export function reportError(json: boolean, error: unknown): ExitCode {
  const err = error instanceof Error ? error : new Error(String(error));
  const typed = err instanceof AgentStateError && err.code !== 'INTERNAL' ? err : null;
  const code = typed ? exitCodeFor(typed.code) : EXIT.INTERNAL;
  const message = typed ? err.message : `internal error: ${err.message}`;
  const hint = typed ? typed.hint : REPORT_HINT;
  const where = typed?.location ? `${formatLocation(typed.location)}: ` : '';
  process.stderr.write(
    safeText(`agent-state: ${where}${message}${hint ? ` (fix: ${hint})` : ''}\n`),
  );
  if (json) {
    const doc = {
      error: {
        code: typed?.code ?? 'INTERNAL',
        exit_code: code,
        message,
        ...(typed?.location ?? {}),
        hint: hint ?? null,
        ...(typed?.details === undefined ? {} : { details: typed.details }),
      },
    };
    process.stdout.write(`${safeJson(doc, 2)}\n`);
  }
  if (!typed && process.env.AGENT_STATE_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
  return code;
}
