// The lean route: the commands that hosts and git hooks run on every tool call, message, commit
// and session start (`event`, `boot`, `hook <name>`, `statusline`). They parse their options with
// parse-args.ts instead of commander and print through plain ANSI styles instead of chalk, so
// such a call loads neither (nor YAML, unless it reads a state file). The commander program
// registers the same specs, for --help.
import { AGENT_ENV, checkAgentName } from '../state/agent-name.js';
import type { ExitCode } from '../error-report.js';
import { createOutput, reportError, type Output } from './output.js';
import { parseArgs, resolveCwd, scanArgv, type LeanCommand } from './parse-args.js';

// Each loads only when it runs: an `event` call initializes nothing of `boot`.
export const LEAN_COMMANDS: Readonly<Record<string, () => Promise<LeanCommand>>> = {
  event: async () => (await import('./commands/event.js')).eventCommand,
  boot: async () => (await import('./commands/boot.js')).bootCommand,
  hook: async () => (await import('./commands/hook.js')).hookCommand,
  statusline: async () => (await import('./commands/statusline.js')).statuslineCommand,
};

function output(flags: { json: boolean; quiet: boolean; color: boolean }): Output {
  return createOutput({
    ...flags,
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}

/** Runs one lean command from the whole argv (without node and script); returns the exit code. */
export async function runLean(command: LeanCommand, argv: readonly string[]): Promise<ExitCode> {
  let out = output(scanArgv(argv).globals);
  try {
    const parsed = parseArgs(argv, command.spec);
    out = output(parsed.globals);
    // --agent is the environment variable for this run, as on the commander route.
    if (parsed.globals.agent !== undefined)
      process.env[AGENT_ENV] = checkAgentName(parsed.globals.agent, '--agent');
    const io = {
      cwd: resolveCwd(parsed.globals.cwd),
      env: process.env,
      now: () => new Date(),
      out,
    };
    return await command.run(parsed, io);
  } catch (error) {
    return reportError(out, error, process.env);
  }
}
