// Fixtures for the git-hook tests: a repository with agent-state state and a Forbidden zone,
// real `git commit` runs, and a project-local install of agent-state (node_modules/.bin).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  BIN,
  REPO_ROOT,
  git,
  gitdir,
  runCli,
  testdir,
  writeFiles,
  type CliResult,
} from './fixtures.js';

export const GOALS = `# Todo API

Add pagination to GET /todos without changing the storage layer.

## Forbidden

- \`src/storage/**\` — the storage layer is frozen (another team owns it)
`;

export const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

// No agent-state on PATH: only what a test installs into the repository may be found.
const PATH_WITHOUT_AGENT_STATE = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('node_modules/.bin'))
  .join(':');

/** The environment of a person committing: no color, nothing of ours on PATH. */
export function commitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...IDENTITY,
    PATH: PATH_WITHOUT_AGENT_STATE,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

/** Runs a git command as a person would (hooks included); never throws. */
export function gitRun(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const result = spawnSync('git', args, { cwd, env: commitEnv(env), encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Stages `files` (written first) and commits them; returns git's result. */
export function commitFiles(
  cwd: string,
  files: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
): CliResult {
  writeFiles(cwd, files);
  git(cwd, 'add', '--', ...Object.keys(files));
  return gitRun(cwd, ['commit', '-q', '-m', `change ${Object.keys(files).join(' ')}`], env);
}

/** A git repository with .agent/ initialized, a Forbidden zone, and everything committed. */
export async function stateRepo(files: Record<string, string> = {}): Promise<string> {
  const repo = gitdir({
    'package.json': '{ "name": "todo-api", "private": true }\n',
    'src/server.js': 'export const port = 3000;\n',
    'src/storage/db.js': 'export const db = new Map();\n',
    ...files,
  });
  const init = await runCli(repo, ['init', '--goal', 'Add pagination to GET /todos']);
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  writeFiles(repo, { '.agent/state/goals.md': GOALS });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'agent-state');
  return repo;
}

/** Installs agent-state into the repository the way npm does: node_modules/.bin/agent-state. */
export function linkAgentState(repo: string): void {
  mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, join(repo, 'node_modules', '.bin', 'agent-state'));
}

/** A throwaway copy of this package (bin, dist, package.json), to install from and then delete. */
export function packageCopy(): string {
  const dir = testdir();
  for (const entry of ['bin', 'dist', 'schemas', 'templates', 'package.json'])
    cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** The events of the task's log whose type starts with `prefix` (`git.`, `file.modified`). */
export function loggedEvents(repo: string, prefix: string): Record<string, unknown>[] {
  let text = '';
  try {
    text = readFileSync(join(repo, '.agent', 'log', 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => String(event.type).startsWith(prefix));
}
