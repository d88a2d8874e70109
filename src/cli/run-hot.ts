// The hot bundle's entry (dist/bundle/agent-state-hot.cjs): `event` and `hook`, which the hosts run
// around every tool call, from a bundle that holds only them, so that such a call reads and
// deserializes a fraction of the whole CLI. start.ts sends a call here only when its first word is
// one of them and it asks for no --help or --version; everything else gets the whole CLI.
import { eventCommand } from './commands/event.js';
import { runLean } from './lean.js';
import { createOutput, processIo, reportError } from './output.js';
import { scanArgv } from './parse-args.js';
import type { ExitCode } from '../error-report.js';

/** Runs one `event` or `hook` call (argv without node and script); never throws. */
export async function runCli(argv: readonly string[]): Promise<ExitCode> {
  const io = processIo();
  const { globals } = scanArgv(argv);
  try {
    return await runLean(eventCommand, argv, io, globals);
  } catch (error) {
    return reportError(createOutput({ ...globals, io }), error, io);
  }
}
