// The commander route: every command but the lean ones, and --help and --version for all. Errors
// go through the one mapper (error-report.ts), as on every route.
import { CommanderError, type Command } from 'commander';
import { EXIT, type ExitCode } from '../error-report.js';
import { UsageError } from '../errors.js';
import type { CommandContext, RunState } from './action.js';
import {
  ansiStyle,
  colorLevel,
  createOutput,
  reportError,
  type CliIo,
  type Output,
  type Style,
} from './output.js';
import { resolveCwd, scanArgv, HINT, type GlobalFlags } from './parse-args.js';
import { commandWord } from './command-list.js';
import { createProgram } from './program.js';

type Styles = (level: 0 | 1 | 2 | 3) => Style;

function outputFor(flags: Partial<GlobalFlags>, io: CliIo, style: Styles): Output {
  return createOutput({
    json: flags.json === true,
    quiet: flags.quiet === true,
    color: flags.color !== false,
    io,
    style,
  });
}

// chalk for a terminal; importing it detects the terminal's colors (a tenth of a piped call's
// start-up), which a call without color never needs: its styles are no-ops either way.
async function stylesFor(flags: Partial<GlobalFlags>, io: CliIo): Promise<Styles> {
  const color = flags.color !== false;
  if (colorLevel(color, io.env, io.stdout) === 0 && colorLevel(color, io.env, io.stderr) === 0)
    return ansiStyle;
  const { Chalk } = await import('chalk');
  return (level) => new Chalk({ level });
}

function contextFor(command: Command, io: CliIo, style: Styles): CommandContext {
  const flags = command.optsWithGlobals<Partial<GlobalFlags>>();
  const out = outputFor(flags, io, style);
  return { cwd: resolveCwd(flags.cwd, io), out, env: io.env, now: () => new Date(), io };
}

// Commander's own failures: help and the version are not errors; anything else is a usage
// mistake, reported in one line (its "Did you mean …?" line joined to the message).
function commanderResult(error: CommanderError): ExitCode | UsageError {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
    return EXIT.OK;
  // `help [command]` asked for it (exit code 0); no command, or a group without its
  // subcommand, is a usage mistake that commander answers with help (exit code 1).
  if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  const message = error.message
    .replace(/^error:\s*/, '')
    .trim()
    .replaceAll('\n', ' ');
  return new UsageError(message, { hint: HINT });
}

/** Runs the commander program with `argv` (without node and script) on `io`; returns the exit code. */
export async function runProgram(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { words, globals, help } = scanArgv(argv);
  const style = await stylesFor(globals, io);
  const makeContext = (command: Command) => contextFor(command, io, style);
  const state: RunState = { exitCode: EXIT.OK, argv, io, makeContext };
  const program = await createProgram(state, help ? undefined : commandWord(words[0]));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (error) {
    const outcome = error instanceof CommanderError ? commanderResult(error) : error;
    if (typeof outcome === 'number') return outcome as ExitCode;
    return reportError(outputFor(globals, io, style), outcome, io);
  }
}
