// The CLI entry point and its one exit point: every error becomes one line on stderr (or a JSON
// error document with --json) and a documented exit code. No stack trace for a user mistake.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { AgentStateError, UsageError, formatLocation } from '../errors.js';
import type { CommandContext, RunState } from './action.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
import { createOutput, type Output } from './output.js';
import { createProgram } from './program.js';

const REPORT_URL = 'https://github.com/agent-state/agent-state/issues';

interface GlobalFlags {
  cwd?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

function outputFor(flags: GlobalFlags): Output {
  return createOutput({
    json: flags.json === true,
    quiet: flags.quiet === true,
    color: flags.color !== false,
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}

function contextFor(command: Command): CommandContext {
  const flags = command.optsWithGlobals<GlobalFlags>();
  const cwd = resolve(flags.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    throw new UsageError(`--cwd ${flags.cwd}: no such directory`, {
      hint: 'pass an existing directory',
    });
  }
  return { cwd, out: outputFor(flags), env: process.env, now: () => new Date() };
}

// Global flags as far as they can be known when commander itself failed.
function flagsFromArgv(argv: readonly string[]): GlobalFlags {
  return {
    json: argv.includes('--json'),
    quiet: argv.includes('--quiet') || argv.includes('-q'),
    color: !argv.includes('--no-color'),
  };
}

function report(
  out: Output,
  code: ExitCode,
  error: {
    code: string;
    message: string;
    hint?: string;
    location?: { file: string; line?: number; column?: number };
    details?: unknown;
  },
): void {
  const where = error.location ? `${formatLocation(error.location)}: ` : '';
  const fix = error.hint ? ` (fix: ${error.hint})` : '';
  out.error(`agent-state: ${where}${error.message}${fix}`);
  if (out.json) {
    out.printJson({
      error: {
        code: error.code,
        exit_code: code,
        message: error.message,
        ...(error.location ?? {}),
        hint: error.hint ?? null,
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    });
  }
}

// Turns anything thrown into an exit code, printing it the way its kind deserves.
function handleError(error: unknown, out: Output): ExitCode {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
      return EXIT.OK;
    // `help [command]` asked for it (exit code 0); no command, or a group without its
    // subcommand, is a usage mistake that commander answers with help (exit code 1).
    if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    const message = error.message.replace(/^error:\s*/, '').split('\n')[0]!;
    report(out, EXIT.USAGE, {
      code: 'USAGE',
      message,
      hint: 'see `agent-state --help` or `agent-state <command> --help`',
    });
    return EXIT.USAGE;
  }
  if (error instanceof AgentStateError && error.code !== 'INTERNAL') {
    const code = exitCodeFor(error.code);
    report(out, code, error);
    return code;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  const errno = (err as NodeJS.ErrnoException).code;
  if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno) && (err as NodeJS.ErrnoException).path) {
    report(out, EXIT.INTERNAL, {
      code: 'IO',
      message: `cannot access ${(err as NodeJS.ErrnoException).path}: ${errno}`,
      hint: 'check that the path exists and is writable',
    });
    return EXIT.INTERNAL;
  }
  report(out, EXIT.INTERNAL, {
    code: 'INTERNAL',
    message: `internal error: ${err.message}`,
    hint: `this is a bug; please report it at ${REPORT_URL} with the command you ran and \`agent-state --version\``,
  });
  if (process.env.AGENT_STATE_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
  return EXIT.INTERNAL;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[]): Promise<ExitCode> {
  const state: RunState = { exitCode: EXIT.OK, makeContext: contextFor };
  const program = createProgram(state, {
    writeOut: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (error) {
    return handleError(error, outputFor(flagsFromArgv(argv)));
  }
}

// No top-level await: the bundle is CommonJS, loaded with a code cache (load-cached.ts).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
