// Fixtures for the multi-agent tests: a repository with agent-state and its merge driver
// installed, worktrees beside it, git runs that report failure instead of throwing, and the
// state files read back as values.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { expect } from 'vitest';
import type { Progress } from '../../src/types.js';
import { git, gitdir, runCli, type CliResult } from './fixtures.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_MERGE_AUTOEDIT: 'no',
};

/** Runs git; returns its exit code and output instead of throwing. */
export function gitTry(cwd: string, ...args: string[]): CliResult {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...IDENTITY, NO_COLOR: '1' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI (in-process: fixtures.ts runCli) and expects it to succeed. */
export async function cli(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const result = await runCli(cwd, args, { env });
  if (result.code !== 0)
    throw new Error(`agent-state ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** A repository on main with agent-state initialized, its hooks and merge driver installed, all committed. */
export async function agentRepo(goal = 'Ship the feature with several agents'): Promise<string> {
  const repo = gitdir({ 'README.md': '# fixture\n' });
  await cli(repo, ['init', '--goal', goal]);
  await cli(repo, ['hooks', 'install', '--hooks', 'pre-commit']);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'agent-state');
  return repo;
}

/** A new worktree of `repo` on a new branch, beside it; returns its path. */
export function addWorktree(repo: string, branch: string): string {
  const path = join(dirname(repo), `${basename(repo)}-${branch}`);
  git(repo, 'worktree', 'add', '-q', path, '-b', branch);
  return path;
}

/** Commits everything in `dir`. */
export function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  const result = gitTry(dir, 'commit', '-q', '-m', message);
  expect(result.code, result.stderr).toBe(0);
}

/** The shared progress.yaml of `dir`, parsed. */
export function readShared(dir: string): Progress {
  return parse(readFileSync(join(dir, '.agent/state/progress.yaml'), 'utf8')) as Progress;
}

/** The paths git reports as unmerged. */
export function unmerged(dir: string): string[] {
  return git(dir, 'diff', '--name-only', '--diff-filter=U').split('\n').filter(Boolean);
}

/** The command a STALE fix prints, as arguments to run as printed (`agent-state ...` in backticks). */
export function fixCommand(text: string, id: string): string[] {
  const match = new RegExp('`agent-state (done ' + id + ' [^`]*)`').exec(text);
  if (!match) throw new Error(`no fix for ${id} in:\n${text}`);
  return match[1]!.split(' ');
}
