// The lean route: what hosts and git hooks run on every call (`event`, `boot`, `hook <name>`,
// `statusline`) and `status`, which agents poll. They parse with parse-args.ts and print plain
// ANSI, loading neither commander nor chalk; commander registers the same specs, for --help.
import { AGENT_ENV, checkAgentName } from '../state/agent-name.js';
import type { ExitCode } from '../error-report.js';
import type { LeanWord } from './command-list.js';
import { createOutput, reportError, type CliIo } from './output.js';
import { parseArgs, resolveCwd, scanArgv, type LeanCommand } from './parse-args.js';

// Each loads only when it runs: an `event` call initializes nothing of `boot`.
export const LEAN_COMMANDS: Readonly<Record<LeanWord, () => Promise<LeanCommand>>> = {
  event: async () => (await import('./commands/event.js')).eventCommand,
  boot: async () => (await import('./commands/boot.js')).bootCommand,
  hook: async () => (await import('./commands/hook.js')).hookCommand,
  statusline: async () => (await import('./commands/statusline.js')).statuslineCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
};

/** Runs a lean command from the whole argv on `io`; `globals`: when the router scanned them. */
export async function runLean(
  command: LeanCommand,
  argv: readonly string[],
  io: CliIo,
  globals = scanArgv(argv).globals,
): Promise<ExitCode> {
  let out = createOutput({ ...globals, io });
  try {
    const parsed = parseArgs(argv, command.spec);
    out = createOutput({ ...parsed.globals, io });
    // --agent is the environment variable for this run, as on the commander route.
    if (parsed.globals.agent !== undefined)
      io.env[AGENT_ENV] = checkAgentName(parsed.globals.agent, '--agent');
    const cwd = resolveCwd(parsed.globals.cwd, io);
    return await command.run(parsed, { cwd, env: io.env, now: () => new Date(), out, io });
  } catch (error) {
    return reportError(out, error, io);
  }
}
