// What a command's action gets and returns, and how its result is printed (on both routes).
import type { Command } from 'commander';
import { formatLocation } from '../errors.js';
import type { Warning } from '../types.js';
import type { ExitCode } from '../error-report.js';
import type { CliIo, Output } from './output.js';
import { safeText } from '../text/safe-text.js';

/** What every command can use. */
export interface CommandContext {
  /** The working directory (--cwd, or the call's). */
  cwd: string;
  out: Output;
  /** io.env. */
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** The call's streams, for what bypasses `out` (stdin, a host's raw answer). */
  io: CliIo;
}

/** What an action produces. `json` is printed with --json, `text` otherwise. */
export interface CommandResult {
  text?: string;
  json?: unknown;
  warnings?: Warning[];
  /** Defaults to 0. */
  exitCode?: ExitCode;
}

/** Per-run state shared between the actions and main.ts. */
export interface RunState {
  exitCode: ExitCode;
  /** The whole argv of the run (without node and script). */
  argv: readonly string[];
  io: CliIo;
  makeContext(command: Command): CommandContext;
}

/** Formats a warning for stderr: `file:line: message` (made safe for the terminal). */
export function formatWarning(warning: Warning): string {
  return safeText(
    `${formatLocation({ file: warning.file, line: warning.line })}: ${warning.message}`,
  );
}

// The warnings that will be printed, less those worth reading once that were shown before
// (Warning.once). With --json or --quiet nothing is printed, so nothing counts as shown.
async function toShow(ctx: CommandContext, warnings: readonly Warning[]): Promise<Warning[]> {
  if (ctx.out.json || ctx.out.quiet) return [];
  if (!warnings.some((w) => w.once !== undefined)) return [...warnings];
  const [{ findRoot }, { firstShowings }] = await Promise.all([
    import('../state/find-root.js'),
    import('../state/shown-warnings.js'),
  ]);
  try {
    return firstShowings(findRoot(ctx.cwd), warnings);
  } catch {
    return [...warnings];
  }
}

/** Prints a result (its warnings on stderr, then its JSON or text); returns its exit code. */
export async function printResult(ctx: CommandContext, result: CommandResult): Promise<ExitCode> {
  for (const warning of await toShow(ctx, result.warnings ?? []))
    ctx.out.warn(formatWarning(warning));
  if (ctx.out.json) ctx.out.printJson(result.json ?? {});
  else if (result.text !== undefined) ctx.out.print(result.text);
  return result.exitCode ?? 0;
}

/** Resolves with the signal on the first Ctrl-C (or SIGTERM); a second one falls through to Node's default. */
export function untilInterrupted(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
