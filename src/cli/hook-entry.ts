// The fast path of `agent-state hook <name>`: a git hook runs it on every commit, so it is one
// self-contained bundle (dist/bundle/hook-entry.cjs) without commander, chalk or any other command.
// entry.ts routes `hook ...` here; the full CLI's `hook` command loads it too, so both behave the
// same. Anything it does not understand (an unknown option) goes to the full program.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { ansiPaint } from './hook-report.js';
import { HOOK_NAMES } from '../git-hooks/hook-types.js';
import { reportHookError, runHookCommand, type HookCommand } from './hook-run.js';
import { runMainBundle } from './load-cached.js';

/** The global options a hook call can carry. */
export interface HookFlags {
  cwd?: string;
  json?: boolean;
  quiet?: boolean;
  /** false for --no-color; colors also need a terminal (NO_COLOR and FORCE_COLOR honoured). */
  color?: boolean;
}

// `hook <name> [git's arguments]` with the global options before or after; null sends the call to
// the full program.
function parse(
  argv: readonly string[],
): { name: HookCommand; args: string[]; flags: HookFlags } | null {
  const flags: HookFlags = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') flags.json = true;
    else if (arg === '-q' || arg === '--quiet') flags.quiet = true;
    else if (arg === '--no-color') flags.color = false;
    else if ((arg === '-C' || arg === '--cwd') && argv[i + 1] !== undefined) flags.cwd = argv[++i];
    else if (arg.startsWith('--cwd=')) flags.cwd = arg.slice('--cwd='.length);
    else if (arg.startsWith('-')) return null;
    else words.push(arg);
  }
  const [command, name, ...args] = words;
  if (command !== 'hook' || !HOOK_NAMES.includes(name as HookCommand)) return null;
  return { name: name as HookCommand, args, flags };
}

function colorOn(enabled: boolean, env: NodeJS.ProcessEnv): boolean {
  if (!enabled || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '')
    return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return process.stderr.isTTY === true && env.TERM !== 'dumb';
}

/** Runs one hook and returns its exit code; every error is reported here, none is thrown. */
export async function runHook(
  name: HookCommand,
  args: readonly string[],
  flags: HookFlags = {},
): Promise<number> {
  const env = process.env;
  const io = {
    cwd: resolve(flags.cwd ?? process.cwd()),
    env,
    json: flags.json === true,
    quiet: flags.quiet === true,
    paint: ansiPaint(colorOn(flags.color !== false, env)),
    now: () => new Date(),
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
  };
  try {
    if (!existsSync(io.cwd) || !statSync(io.cwd).isDirectory())
      throw new UsageError(`--cwd ${flags.cwd}: no such directory`, {
        hint: 'pass an existing directory',
      });
    return await runHookCommand(name, args, io);
  } catch (error) {
    return reportHookError(error, io);
  }
}

/**
 * The entry bin/agent-state.js calls for `hook ...`: returns the exit code, or null when the call
 * went to the full program (which sets process.exitCode itself when it is done).
 */
export async function hookMain(argv: readonly string[]): Promise<number | null> {
  const parsed = parse(argv);
  if (parsed !== null) return runHook(parsed.name, parsed.args, parsed.flags);
  runMainBundle();
  return null;
}
