// The one place where an error becomes what a user sees: a code, an exit code, a message and a
// fix. Every route uses it — commands, `--json` documents, git hooks and host hooks (which print
// it but still exit 0) — so the same fault reads the same everywhere. docs/cli.md lists the codes.
import { AgentStateError, formatLocation, type ErrorCode, type SourceLocation } from './errors.js';
import { redactSecrets, redactValue } from './text/redact.js';

/** The documented exit codes (docs/cli.md). */
export const EXIT = {
  OK: 0,
  CHECK_FAILED: 1,
  USAGE: 2,
  NOT_INITIALIZED: 3,
  BUSY: 4,
  INTERNAL: 70,
  /** Interrupted (Ctrl-C) — 128 + SIGINT, as shells report it. */
  CANCELLED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Every code an error report can carry: the library's, and IO for a refused file operation. */
export type ReportCode = ErrorCode | 'IO';

const BY_CODE: Record<ReportCode, ExitCode> = {
  USAGE: EXIT.USAGE,
  INVALID: EXIT.USAGE,
  NOT_INITIALIZED: EXIT.NOT_INITIALIZED,
  BUSY: EXIT.BUSY,
  CONFLICT: EXIT.BUSY,
  CHECK_FAILED: EXIT.CHECK_FAILED,
  CANCELLED: EXIT.CANCELLED,
  IO: EXIT.INTERNAL,
  INTERNAL: EXIT.INTERNAL,
};

/** An error as every route reports it. */
export interface ErrorReport {
  code: ReportCode;
  exit: ExitCode;
  message: string;
  hint: string | undefined;
  location: SourceLocation | undefined;
  details: unknown;
  /** The stack, for AGENT_STATE_DEBUG: only for errors that are not the user's. */
  stack: string | undefined;
}

const BUG_HINT =
  'this is a bug; please report it at https://github.com/agent-state/agent-state/issues with the command you ran and `agent-state --version`';

/** The exit code of a report code. */
export function exitCodeFor(code: ReportCode): ExitCode {
  return BY_CODE[code];
}

/**
 * Turns anything thrown into its report. A message can quote what it was given (an id, a line
 * of a file), and every route shows it to someone who may be a model — an agent reading the
 * CLI's stderr, a host hook, an MCP tool result — so secrets in it are redacted here, once.
 */
export function describeError(error: unknown): ErrorReport {
  const report = reportOf(error);
  return {
    ...report,
    message: redactSecrets(report.message).text,
    hint: report.hint === undefined ? undefined : redactSecrets(report.hint).text,
    details: redactValue(report.details),
  };
}

function reportOf(error: unknown): ErrorReport {
  if (error instanceof AgentStateError && error.code !== 'INTERNAL') {
    const { code, message, hint, location, details } = error;
    return { code, exit: exitCodeFor(code), message, hint, location, details, stack: undefined };
  }
  const err = error instanceof Error ? error : new Error(String(error));
  const errno = err as NodeJS.ErrnoException;
  // The operating system refused a file operation (a file where a directory belongs, no
  // permission, a full disk): the user's environment, not a bug; the path says where.
  if (typeof errno.code === 'string' && /^E[A-Z]+$/.test(errno.code) && errno.path) {
    return {
      code: 'IO',
      exit: EXIT.INTERNAL,
      message: `cannot access ${errno.path}: ${errno.code}`,
      hint: 'check that the path exists, is of the right kind (file or directory) and is writable',
      location: undefined,
      details: undefined,
      stack: err.stack,
    };
  }
  return {
    code: 'INTERNAL',
    exit: EXIT.INTERNAL,
    message: `internal error: ${err.message}`,
    hint: BUG_HINT,
    location: undefined,
    details: undefined,
    stack: err.stack,
  };
}

/** `file:line:col: message (fix: hint)` — the report as one line, without the program's name. */
export function errorText(report: ErrorReport): string {
  const where = report.location ? `${formatLocation(report.location)}: ` : '';
  return `${where}${report.message}${report.hint ? ` (fix: ${report.hint})` : ''}`;
}

/** The `--json` error document (docs/cli.md). */
export function errorDocument(report: ErrorReport): { error: Record<string, unknown> } {
  return {
    error: {
      code: report.code,
      exit_code: report.exit,
      message: report.message,
      ...(report.location ?? {}),
      hint: report.hint ?? null,
      ...(report.details === undefined ? {} : { details: report.details }),
    },
  };
}
