// Test fixtures: real temp directories and real git repositories built from a path → content
// object (never the working directory, never mocks).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'agent-state.js');

const created: string[] = [];

/** Removes the temp directories made so far (test/helpers/setup.ts: after each test file). */
export function removeTestdirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp directory holding `files` (path → content); removed after the test file. */
export function testdir(files: Record<string, string | Uint8Array> = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-state-test-')));
  created.push(dir);
  writeFiles(dir, files);
  return dir;
}

/** Writes `files` (path → content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Runs git in `cwd` with a fixed identity; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
}

/** A temp git repository with `files` committed on branch main. */
export function gitdir(
  files: Record<string, string | Uint8Array> = { 'README.md': '# fixture\n' },
): string {
  const dir = testdir(files);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'commit.gpgsign', 'false');
  if (Object.keys(files).length > 0) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a CLI call of the tests sees: this process's, without colors, plus `env`. */
function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const all: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...env };
  // As for a child process: a variable set to undefined is not set.
  for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
  return all;
}

/**
 * Runs one CLI call in this process: src/cli/run-cli.ts's `runCli` with its own stdout, stderr,
 * stdin (`input`, else empty), environment and directory. What only a real process shows (the
 * bin's exit, the bundle and its code cache, signals, color set-up, closed pipes) is for runBin.
 */
export async function runCli(
  cwd: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const { runCli: run } = await import('../../src/cli/run-cli.js');
  const stdout = capture();
  const stderr = capture();
  const stdin = Readable.from([options.input ?? '']);
  const code = await run(args, { stdin, stdout, stderr, env: cliEnv(options.env), cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function capture() {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

/**
 * Spawns the real bin (or `options.bin`, another entry of it) with `args` in `cwd` (stdin
 * optional); never throws on a non-zero exit.
 */
export function runBin(
  cwd: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; bin?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const bin = options.bin ?? BIN;
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: cliEnv(options.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * A file from the shared conformance fixtures (real data from outside the project, never copied
 * into it): `$AGENT_STATE_SHARED_FIXTURES`, else `../shared/fixtures` beside this checkout, else
 * the workplace's `/work/shared/fixtures`. Null when none holds it.
 */
export function sharedFixture(name: string): string | null {
  const dirs = [
    process.env.AGENT_STATE_SHARED_FIXTURES,
    join(REPO_ROOT, '..', 'shared', 'fixtures'),
    '/work/shared/fixtures',
  ];
  for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return null;
}
