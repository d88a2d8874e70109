// The hot bundle's entry (dist/bundle/agent-state-hot.cjs): `event`, which the hosts run after
// every tool call, from a bundle that holds only it, so that such a call reads and deserializes a
// fraction of the whole CLI. start.ts sends a call here only when its first word is a hot one
// (hot-words.ts) and it asks for no --help or --version; everything else gets the whole CLI.
import { eventCommand } from './commands/event.js';
import { runLean } from './lean.js';
import { processIo } from './output.js';
import type { ExitCode } from '../error-report.js';

/** Runs one `event` call (argv without node and script); never throws (runLean reports). */
export function runCli(argv: readonly string[]): Promise<ExitCode> {
  return runLean(eventCommand, argv, processIo());
}
