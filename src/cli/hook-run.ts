// Runs one `agent-state hook <name>` for both entries (the lean one git hooks use and the full
// commander one), so that both behave the same. Output goes to stderr: git shows it either way.
import { AgentStateError, formatLocation } from '../errors.js';
import type { HookName } from '../git-hooks/hook-types.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
import { renderPreCommit, type Paint } from './hook-report.js';

/** The hooks `agent-state hook` runs. */
export type HookCommand = HookName;

export interface HookIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  json: boolean;
  quiet: boolean;
  paint: Paint;
  now: () => Date;
  stdout(text: string): void;
  stderr(text: string): void;
}

function printJson(io: HookIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a hook and returns its exit code; a post-* hook never fails (it cannot undo anything). */
export async function runHookCommand(
  name: HookCommand,
  args: readonly string[],
  io: HookIo,
): Promise<ExitCode> {
  const options = { cwd: io.cwd, env: io.env, now: io.now };
  if (name === 'pre-commit') {
    const { runPreCommit } = await import('../git-hooks/pre-commit-hook.js');
    const result = await runPreCommit(options);
    if (io.json) printJson(io, { hook: name, blocked: !result.ok, ...result });
    else {
      const lines = renderPreCommit(result, io.paint);
      if (lines.length > 0 && (!io.quiet || !result.ok)) io.stderr(`${lines.join('\n')}\n`);
    }
    return result.ok ? EXIT.OK : EXIT.CHECK_FAILED;
  }
  try {
    const { recordCheckout, recordMerge } = await import('../git-hooks/git-events.js');
    const result =
      name === 'post-checkout'
        ? await recordCheckout(args, options)
        : await recordMerge(args, options);
    if (io.json) printJson(io, { hook: name, ...result });
    else if (result.warning && !io.quiet)
      io.stderr(io.paint.yellow(`agent-state ${name} hook: ${result.warning.message}\n`));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (io.json) printJson(io, { hook: name, recorded: null, skipped: null, error: message });
    else if (!io.quiet)
      io.stderr(io.paint.yellow(`agent-state ${name} hook: nothing recorded: ${message}\n`));
  }
  return EXIT.OK;
}

/** The one-line error of the lean entry, in main.ts's format. */
export function reportHookError(error: unknown, io: Pick<HookIo, 'stderr' | 'paint'>): ExitCode {
  if (error instanceof AgentStateError && error.code !== 'INTERNAL') {
    const where = error.location ? `${formatLocation(error.location)}: ` : '';
    const fix = error.hint ? ` (fix: ${error.hint})` : '';
    io.stderr(`${io.paint.red(`agent-state: ${where}${error.message}${fix}`)}\n`);
    return exitCodeFor(error.code);
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(
    `${io.paint.red(`agent-state: internal error in the hook: ${message} (fix: commit with AGENT_STATE=0 and report this bug)`)}\n`,
  );
  return EXIT.INTERNAL;
}
