// The entry of the hot bundles (dist/bundle/agent-state-<word>.cjs, one per hot word): `event`,
// `hook` and `boot`, which the hosts run around every tool call and at every session start, each
// from a bundle that holds only it, so that such a call reads and deserializes a fraction of the
// whole CLI. The build defines AGENT_STATE_HOT_WORD per bundle, and esbuild leaves the other
// commands out. start.ts sends a call here only when its first word is one of them and it asks for
// no --help or --version; everything else gets the whole CLI.
import type { LeanCommand } from './parse-args.js';
import { runLean } from './lean.js';
import { processIo } from './output.js';
import type { ExitCode } from '../error-report.js';
import type { HotWord } from './hot-words.js';

declare const AGENT_STATE_HOT_WORD: HotWord;

// The commands are in this bundle: loading one cannot fail.
const command = async (): Promise<LeanCommand> =>
  AGENT_STATE_HOT_WORD === 'event'
    ? (await import('./commands/event.js')).eventCommand
    : AGENT_STATE_HOT_WORD === 'hook'
      ? (await import('./commands/hook.js')).hookCommand
      : (await import('./commands/boot.js')).bootCommand;

/** Runs one call of this bundle's command (argv without node and script); never throws (runLean reports). */
export async function runCli(argv: readonly string[]): Promise<ExitCode> {
  return runLean(await command(), argv, processIo());
}
