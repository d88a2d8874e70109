// The only module that runs git (DESIGN §6). Every call goes through here so that the flags we
// depend on are named constants, the environment is set once, and failures become typed errors.
import type * as ChildProcess from 'node:child_process';
import { AgentStateError } from '../errors.js';

// Loaded on the first git run, not at import: child_process takes ~4 ms to load, and most calls
// (a `status` without a touched Forbidden file, every hook but the boots) never run git.
const childProcess = (): typeof ChildProcess => process.getBuiltinModule('node:child_process');

/** What a git run produced. */
export interface GitOutput {
  stdout: Buffer;
  stderr: string;
  /** Exit status; null when git was killed. */
  status: number | null;
}

export interface GitRunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Return a failing run instead of throwing (for probes such as "does this commit exist?"). */
  allowFailure?: boolean;
  /** Standard input for a synchronous run (e.g. the paths for `cat-file --batch`). */
  input?: string;
}

// Why: a background tool must not take .git/index.lock for git status's opportunistic index
// refresh, or the user's own `git commit` running at the same moment fails on the lock.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };

// Output of a huge dirty set or history can exceed spawnSync's 1 MiB default.
const MAX_BUFFER = 1024 * 1024 * 1024;

// Both runs: git's environment set once, no console window on Windows.
function spawnOptions({ cwd, env = process.env }: GitRunOptions) {
  return { cwd, env: { ...env, ...GIT_ENV }, windowsHide: true };
}

function failure(args: readonly string[], output: GitOutput): AgentStateError {
  const line = output.stderr.trim().split('\n')[0] ?? '';
  return new AgentStateError(
    'INVALID',
    `git ${args[0] ?? ''} failed: ${line || `exit ${output.status}`}`,
    {
      hint: /dubious ownership/.test(output.stderr)
        ? 'mark the repository safe: git config --global --add safe.directory <path>'
        : 'run the same git command yourself to see what is wrong with the repository',
    },
  );
}

// Only a missing executable means git is unavailable; any other spawn error (ENOBUFS, EACCES, ...)
// is reported as itself.
function unavailable(cause: unknown): AgentStateError {
  if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') {
    const message = `git could not be run: ${String((cause as Error).message ?? cause)}`;
    const hint = 'run the same git command yourself to see what is wrong';
    return new AgentStateError('INVALID', message, { cause, hint });
  }
  return new AgentStateError('INVALID', 'git is not installed or not on PATH', {
    cause,
    hint: 'install git, or run outside a git repository for a reduced fingerprint',
    details: { gitUnavailable: true },
  });
}

/** Whether an error says that git itself could not be started (not that a git command failed). */
export function isGitUnavailable(error: unknown): boolean {
  return (
    error instanceof AgentStateError &&
    (error.details as { gitUnavailable?: boolean } | undefined)?.gitUnavailable === true
  );
}

/** Runs git synchronously; throws on a non-zero exit unless `allowFailure`. */
export function runGit(args: readonly string[], options: GitRunOptions): GitOutput {
  const spawn = { ...spawnOptions(options), input: options.input, maxBuffer: MAX_BUFFER };
  const result = childProcess().spawnSync('git', args, spawn);
  if (result.error) throw unavailable(result.error);
  const output = {
    stdout: result.stdout,
    stderr: result.stderr.toString('utf8'),
    status: result.status,
  };
  if (output.status !== 0 && !options.allowFailure) throw failure(args, output);
  return output;
}

/** Runs git without blocking, so several queries can run at once; same contract as runGit. */
export function runGitAsync(args: readonly string[], options: GitRunOptions): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
    const child = childProcess().spawn('git', args, { ...spawnOptions(options), stdio });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(unavailable(error)));
    child.on('close', (status) => {
      const output = {
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8'),
        status,
      };
      if (status !== 0 && !options.allowFailure) reject(failure(args, output));
      else resolve(output);
    });
  });
}

/** Splits NUL-terminated output (`-z`) into its fields, dropping the empty tail. */
export function splitNul(stdout: Buffer): string[] {
  const text = stdout.toString('utf8');
  if (text === '') return [];
  const fields = text.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}
