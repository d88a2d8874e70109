import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, git, gitdir, runCli, testdir } from '../helpers/fixtures.js';
import {
  commitEnv,
  commitFiles,
  gitRun,
  linkAgentState,
  stateRepo,
  loggedEvents,
} from '../helpers/hooks.js';

// pre-commit from Debian's package (.ci/run installs it; so does test/tools/setup.ts when it can); its
// cache stays in a temp dir.
const PRE_COMMIT_HOME = testdir();
const env = (extra: NodeJS.ProcessEnv = {}) => ({ PRE_COMMIT_HOME, ...extra });

const USER_CONFIG = `# Our hooks.
repos:
  - repo: local
    hooks:
      - id: user-check
        name: user check
        entry: sh -c 'echo "pre-commit user hook ran"'
        language: system
        pass_filenames: false
        always_run: true
        verbose: true
`;

function preCommit(repo: string, args: string[]) {
  const result = spawnSync('pre-commit', args, {
    cwd: repo,
    env: commitEnv(env()),
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`pre-commit ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
}

describe('pre-commit (the framework)', () => {
  it('runs the repo: local snippet that `hooks install` prints', async () => {
    const repo = await stateRepo({ '.pre-commit-config.yaml': USER_CONFIG });
    linkAgentState(repo);
    const install = await runCli(repo, ['hooks', 'install', '--json'], { env: commitEnv(env()) });
    expect(install.code).toBe(0);
    const result = JSON.parse(install.stdout) as {
      manager: string;
      snippet: string;
      changes: unknown[];
      notes: string[];
    };
    expect(result.manager).toBe('pre-commit');
    expect(result.changes).toEqual([]);
    expect(result.notes[1]).toBe(
      'then run `pre-commit install --hook-type pre-commit --hook-type post-checkout --hook-type post-merge`',
    );
    expect(readFileSync(join(repo, '.pre-commit-config.yaml'), 'utf8')).toBe(USER_CONFIG); // never edited

    writeFileSync(join(repo, '.pre-commit-config.yaml'), USER_CONFIG + result.snippet);
    git(repo, 'add', '.pre-commit-config.yaml');
    preCommit(repo, [
      'install',
      '--hook-type',
      'pre-commit',
      '--hook-type',
      'post-checkout',
      '--hook-type',
      'post-merge',
    ]);
    expect(JSON.parse((await runCli(repo, ['hooks', 'status', '--json'])).stdout)).toMatchObject({
      active: true,
    });

    const clean = gitRun(repo, ['commit', '-q', '-m', 'pre-commit config'], env());
    expect(clean.code).toBe(0);
    expect(clean.stdout + clean.stderr).toContain('pre-commit user hook ran');

    const blocked = commitFiles(repo, { 'src/storage/db.js': 'changed\n' }, env());
    expect(blocked.code).toBe(1);
    expect(blocked.stdout + blocked.stderr).toContain(
      'agent-state pre-commit hook: commit blocked',
    );
    expect(blocked.stdout + blocked.stderr).toContain('forbidden  src/storage/db.js');

    expect(
      commitFiles(repo, { 'src/storage/db.js': 'skipped\n' }, env({ AGENT_STATE: '0' })).code,
    ).toBe(0);

    // The post-checkout hook records the switch, from pre-commit's environment variables.
    expect(gitRun(repo, ['checkout', '-q', '-b', 'feature'], env()).code).toBe(0);
    expect(loggedEvents(repo, 'git.')).toEqual([
      expect.objectContaining({ type: 'git.checkout', branch: 'feature' }),
    ]);

    const uninstall = await runCli(repo, ['hooks', 'uninstall']);
    expect(uninstall.stdout).toContain('.pre-commit-config.yaml still lists agent-state');
  });

  it("uses the package's .pre-commit-hooks.yaml as a hook repository, and exits 0 without agent-state", async () => {
    const hooksRepo = gitdir({});
    copyFileSync(
      join(REPO_ROOT, '.pre-commit-hooks.yaml'),
      join(hooksRepo, '.pre-commit-hooks.yaml'),
    );
    git(hooksRepo, 'add', '-A');
    git(hooksRepo, 'commit', '-q', '-m', 'hooks');
    const rev = git(hooksRepo, 'rev-parse', 'HEAD').trim();
    const config = `repos:\n  - repo: ${hooksRepo}\n    rev: ${rev}\n    hooks:\n      - id: agent-state\n`;
    const repo = await stateRepo({ '.pre-commit-config.yaml': config });
    preCommit(repo, ['install']);

    const unchecked = commitFiles(repo, { 'src/storage/db.js': 'nobody checks\n' }, env());
    expect(unchecked.code).toBe(0);

    linkAgentState(repo);
    const blocked = commitFiles(repo, { 'src/storage/db.js': 'checked\n' }, env());
    expect(blocked.code).toBe(1);
    expect(blocked.stdout + blocked.stderr).toContain('Forbidden path (matches src/storage/**)');
  });
});
