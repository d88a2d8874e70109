// The documented exit codes (docs/cli.md). main.ts applies them, and the fast paths of entry.ts
// (boot, event, hook) through report-error.ts, which reports exactly as main.ts does.
import type { ErrorCode } from '../errors.js';

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

const BY_ERROR_CODE: Record<ErrorCode, ExitCode> = {
  USAGE: EXIT.USAGE,
  INVALID: EXIT.USAGE,
  NOT_INITIALIZED: EXIT.NOT_INITIALIZED,
  BUSY: EXIT.BUSY,
  CONFLICT: EXIT.BUSY,
  CHECK_FAILED: EXIT.CHECK_FAILED,
  CANCELLED: EXIT.CANCELLED,
  INTERNAL: EXIT.INTERNAL,
};

/** The exit code for a library error code. */
export function exitCodeFor(code: ErrorCode): ExitCode {
  return BY_ERROR_CODE[code];
}
