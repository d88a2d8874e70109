import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, git, runCli } from '../helpers/fixtures.js';
import {
  commitEnv,
  commitFiles,
  linkAgentState,
  stateRepo,
  loggedEvents,
} from '../helpers/hooks.js';

// husky 9 from npm (a devDependency), run the way its `prepare` script runs it.
function huskyInstall(repo: string): void {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'husky', 'bin.js')], {
    cwd: repo,
    env: commitEnv(),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`husky failed: ${result.stderr}`);
}

const USER_HUSKY_HOOK = 'echo "husky user hook ran" >&2\n';

describe('husky 9', () => {
  it('gets our block in .husky/pre-commit, runs it after the user line, and uninstall restores the file', async () => {
    const repo = await stateRepo();
    huskyInstall(repo);
    expect(git(repo, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
    expect(commitFiles(repo, { '.husky/pre-commit': USER_HUSKY_HOOK }).stderr).toContain(
      'husky user hook ran',
    );
    linkAgentState(repo);

    const install = await runCli(repo, ['hooks', 'install', '--json'], { env: commitEnv() });
    expect(install.code).toBe(0);
    const result = JSON.parse(install.stdout) as {
      manager: string;
      reason: string;
      changes: { file: string; action: string }[];
      notes: string[];
    };
    expect(result.manager).toBe('husky');
    expect(result.reason).toBe('core.hooksPath is .husky/_ (husky)');
    expect(result.changes.map((c) => [c.file, c.action])).toEqual([
      ['.husky/pre-commit', 'updated'],
      ['.husky/post-checkout', 'created'],
      ['.husky/post-merge', 'created'],
    ]);
    expect(result.notes).toEqual([]);
    const text = readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8');
    expect(text.startsWith(`${USER_HUSKY_HOOK}# >>> agent-state >>>`)).toBe(true);
    // A committed file must not hold a path of this machine.
    expect(text).not.toContain(REPO_ROOT);

    const clean = commitFiles(repo, { 'src/server.js': 'export const port = 1;\n' });
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain('husky user hook ran');

    const blocked = commitFiles(repo, { 'src/storage/db.js': 'changed\n' });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('husky user hook ran');
    expect(blocked.stderr).toContain('agent-state pre-commit hook: commit blocked');
    expect(blocked.stderr).toContain('husky - pre-commit script failed (code 1)');

    expect(commitFiles(repo, { 'src/storage/db.js': 'skip\n' }, { AGENT_STATE: '0' }).code).toBe(0);

    const status = JSON.parse((await runCli(repo, ['hooks', 'status', '--json'])).stdout) as {
      active: boolean;
      detected: { manager: string };
    };
    expect(status).toMatchObject({ active: true, detected: { manager: 'husky' } });

    const uninstall = await runCli(repo, ['hooks', 'uninstall']);
    expect(uninstall.code).toBe(0);
    expect(readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8')).toBe(USER_HUSKY_HOOK);
    expect(existsSync(join(repo, '.husky', 'post-checkout'))).toBe(false);
  });

  it('lets the commit through when agent-state is not installed in the project', async () => {
    const repo = await stateRepo();
    huskyInstall(repo);
    linkAgentState(repo);
    expect((await runCli(repo, ['hooks', 'install'], { env: commitEnv() })).code).toBe(0);
    expect(commitFiles(repo, { 'src/storage/db.js': 'blocked\n' }).code).toBe(1);
    git(repo, 'reset', '-q');
    rmSync(join(repo, 'node_modules'), { recursive: true, force: true });
    const commit = commitFiles(repo, { 'src/storage/db.js': 'unchecked\n' });
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe('');
  });

  it('records a branch switch through .husky/post-checkout', async () => {
    const repo = await stateRepo();
    huskyInstall(repo);
    linkAgentState(repo);
    await runCli(repo, ['hooks', 'install', '--hooks', 'post-checkout'], { env: commitEnv() });
    const result = spawnSync('git', ['checkout', '-q', '-b', 'feature'], {
      cwd: repo,
      env: commitEnv(),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(loggedEvents(repo, 'git.')).toEqual([
      expect.objectContaining({ type: 'git.checkout', branch: 'feature' }),
    ]);
  });
});
