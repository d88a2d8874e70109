// The CLI bundle's entry: one scan of argv picks the route, lean (lean.ts) for what hosts and git
// hooks run on every call, else the commander program (and all --help, --version), loaded then.
import type { ExitCode } from '../error-report.js';
import { commandWord, isLean } from './command-list.js';
import { LEAN_COMMANDS, runLean } from './lean.js';
import { createOutput, processIo, reportError, type CliIo } from './output.js';
import { scanArgv } from './parse-args.js';

/** Runs one CLI call (argv without node and script) on `io`; returns the exit code, never throws. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
  const { words, globals, help, version } = scanArgv(argv);
  try {
    const word = commandWord(words[0]);
    if (!help && !version && isLean(word))
      return await runLean(await LEAN_COMMANDS[word](), argv, io, globals);
    const { runProgram } = await import('./run-program.js');
    return await runProgram(argv, io);
  } catch (error) {
    // Each route reports its own errors; this catches a bug in loading one.
    return reportError(createOutput({ ...globals, io }), error, io);
  }
}
