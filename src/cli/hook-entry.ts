// The lean entry for `agent-state hook <name>` (bin/agent-state.js routes here): a git hook runs
// it on every commit, so it skips commander, chalk and every other command's imports. Anything
// it does not understand (--help, an unknown option) goes to the full CLI instead.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { ansiPaint } from './hook-report.js';
import { HOOK_COMMANDS, reportHookError, runHookCommand, type HookCommand } from './hook-run.js';

interface Parsed {
  name: HookCommand;
  args: string[];
  cwd: string | undefined;
  json: boolean;
  quiet: boolean;
  color: boolean;
}

// `hook <name> [git's arguments]` with the global options; null sends the call to the full CLI.
function parse(argv: readonly string[]): Parsed | null {
  const [command, name, ...rest] = argv;
  if (command !== 'hook' || !HOOK_COMMANDS.includes(name as HookCommand)) return null;
  const parsed: Parsed = {
    name: name as HookCommand,
    args: [],
    cwd: undefined,
    json: false,
    quiet: false,
    color: true,
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--json') parsed.json = true;
    else if (arg === '-q' || arg === '--quiet') parsed.quiet = true;
    else if (arg === '--no-color') parsed.color = false;
    else if ((arg === '-C' || arg === '--cwd') && rest[i + 1] !== undefined) parsed.cwd = rest[++i];
    else if (arg.startsWith('--cwd=')) parsed.cwd = arg.slice('--cwd='.length);
    else if (arg.startsWith('-')) return null;
    else parsed.args.push(arg);
  }
  return parsed;
}

function colorOn(enabled: boolean, env: NodeJS.ProcessEnv): boolean {
  if (!enabled || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '')
    return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return process.stderr.isTTY === true && env.TERM !== 'dumb';
}

async function run(argv: readonly string[]): Promise<number> {
  const parsed = parse(argv);
  if (parsed === null) {
    await import('./main.js'); // sets process.exitCode itself
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  }
  const env = process.env;
  const paint = ansiPaint(colorOn(parsed.color, env));
  const io = {
    cwd: resolve(parsed.cwd ?? process.cwd()),
    env,
    json: parsed.json,
    quiet: parsed.quiet,
    paint,
    now: () => new Date(),
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
  };
  try {
    if (!existsSync(io.cwd) || !statSync(io.cwd).isDirectory())
      throw new UsageError(`--cwd ${parsed.cwd}: no such directory`, {
        hint: 'pass an existing directory',
      });
    return await runHookCommand(parsed.name, parsed.args, io);
  } catch (error) {
    return reportHookError(error, io);
  }
}

process.exitCode = await run(process.argv.slice(2));
