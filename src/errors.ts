// Typed errors thrown by the library. Only src/error-report.ts turns them into what a user sees
// (a code, an exit code, a message and a fix), for every route of the CLI.

/** Why an operation failed; each code maps to one documented exit code. */
export type ErrorCode =
  | 'USAGE' // the caller asked for something malformed (exit 2)
  | 'INVALID' // a state file or an input does not parse or validate (exit 2)
  | 'NOT_INITIALIZED' // no .agent/ directory was found (exit 3)
  | 'BUSY' // the state lock was not acquired in time (exit 4)
  | 'CONFLICT' // a compare-and-swap saw a newer revision (exit 4)
  | 'CHECK_FAILED' // a check ran and did not pass (exit 1)
  | 'CANCELLED' // the user interrupted a long operation; nothing was written (exit 130)
  | 'INTERNAL'; // a bug (exit 70)

/** Where in a file a problem is. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface AgentStateErrorOptions {
  hint?: string;
  location?: SourceLocation;
  cause?: unknown;
  details?: unknown;
}

// The class name of each code's error (error.name), spelled out for the minified bundle.
const ERROR_NAMES: Record<ErrorCode, string> = {
  USAGE: 'UsageError',
  INVALID: 'InvalidStateError',
  NOT_INITIALIZED: 'NotInitializedError',
  BUSY: 'BusyError',
  CONFLICT: 'ConflictError',
  CHECK_FAILED: 'CheckFailedError',
  CANCELLED: 'CancelledError',
  INTERNAL: 'AgentStateError',
};

/** Base class of every error the library throws on purpose. */
export class AgentStateError extends Error {
  readonly code: ErrorCode;
  /** How to fix it, in one sentence. */
  readonly hint: string | undefined;
  readonly location: SourceLocation | undefined;
  /** Extra machine-readable data (e.g. every problem found), included in --json output. */
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: AgentStateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // Not new.target.name: the CLI bundle is minified.
    this.name = ERROR_NAMES[code];
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
    this.details = options.details;
  }
}

// Each subclass only fixes the code; a fresh class per call keeps `instanceof` apart for each.
function errorClass(code: ErrorCode) {
  return class extends AgentStateError {
    constructor(message: string, options?: AgentStateErrorOptions) {
      super(code, message, options);
    }
  };
}

/** The caller's request is malformed (bad argument, unknown id). */
export class UsageError extends errorClass('USAGE') {}

/** A file or input does not parse or validate; `location` names the place. */
export class InvalidStateError extends errorClass('INVALID') {}

/** No `.agent/` directory exists for this working directory. */
export class NotInitializedError extends errorClass('NOT_INITIALIZED') {}

/** Another process holds the state lock. */
export class BusyError extends errorClass('BUSY') {}

/** A compare-and-swap lost: the state changed since the caller read it. */
export class ConflictError extends errorClass('CONFLICT') {}

/** A check ran and did not pass (drift, stale marker, failing tests, forbidden path). */
export class CheckFailedError extends errorClass('CHECK_FAILED') {}

/** A long operation (the checkpoint's test run) was interrupted; nothing was written. */
export class CancelledError extends errorClass('CANCELLED') {}

/** Formats a location as `file:line:column`, omitting what is unknown. */
export function formatLocation(location: SourceLocation): string {
  let text = location.file;
  if (location.line !== undefined) text += `:${location.line}`;
  if (location.line !== undefined && location.column !== undefined) text += `:${location.column}`;
  return text;
}

/** A plan item is claimed by another agent whose claim is still live (exit 4, like a held lock). */
export class ClaimedError extends errorClass('CONFLICT') {}
