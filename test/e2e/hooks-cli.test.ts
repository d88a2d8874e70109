import { describe, expect, it } from 'vitest';
import { git, runCli, testdir, writeFiles } from '../helpers/fixtures.js';
import { stateRepo } from '../helpers/hooks.js';

describe('agent-state hook / hooks (CLI)', () => {
  it('prints a documented JSON result from `hook pre-commit --json`', async () => {
    const repo = await stateRepo();
    writeFiles(repo, { 'src/storage/db.js': 'changed\n', 'src/server.js': 'changed\n' });
    git(repo, 'add', '-A');
    const result = await runCli(repo, ['hook', 'pre-commit', '--json']);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      hook: 'pre-commit',
      ok: false,
      blocked: true,
      skipped: null,
      staged: 2,
    });
    expect(json.findings).toEqual([
      {
        kind: 'forbidden',
        severity: 'block',
        path: 'src/storage/db.js',
        message: 'this commit changes a Forbidden path (matches src/storage/**)',
        hint: 'unstage it (git restore --staged -- src/storage/db.js), or if the change is intended, commit once with AGENT_STATE_ALLOW_FORBIDDEN=1',
        rule: '`src/storage/**` — the storage layer is frozen (another team owns it)',
        glob: 'src/storage/**',
      },
    ]);
    const skipped = await runCli(repo, ['hook', 'pre-commit', '--json'], {
      env: { AGENT_STATE: '0' },
    });
    expect(JSON.parse(skipped.stdout)).toMatchObject({ ok: true, skipped: 'AGENT_STATE=0' });
  });

  it('takes the full CLI for --help and global options before the command', async () => {
    const repo = await stateRepo();
    const help = await runCli(repo, ['hook', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('AGENT_STATE_ALLOW_FORBIDDEN=1');
    const viaCommander = await runCli(testdir(), ['--cwd', repo, 'hook', 'pre-commit']);
    expect(viaCommander.code).toBe(0);
    // Arguments the lean parser leaves to commander: the full program loads the hook's bundle.
    for (const args of [
      ['hook', 'pre-commit', '--json', '--'],
      ['hook', 'pre-commit', '--json', '-C', '.'],
    ]) {
      const full = await runCli(repo, args);
      expect(full.stderr, args.join(' ')).toBe('');
      expect(full.code).toBe(0);
      expect(JSON.parse(full.stdout)).toMatchObject({ hook: 'pre-commit', ok: true });
    }
    const bad = await runCli(repo, ['hook', 'pre-push']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('pre-push');
  });

  it('says what is wrong outside git, with exit 2', async () => {
    const dir = testdir();
    const install = await runCli(dir, ['hooks', 'install']);
    expect(install.code).toBe(2);
    expect(install.stderr).toContain(
      'is not inside a git repository (fix: git hooks need a git repository: run `git init` first)',
    );
    const hook = await runCli(dir, ['hook', 'pre-commit']);
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain('is not inside a git repository');
  });

  it('says that git is missing instead of failing on it, with exit 2', async () => {
    const repo = await stateRepo();
    const noGit = { PATH: testdir() }; // an empty directory: no git to find
    for (const args of [
      ['hooks', 'install'],
      ['hook', 'pre-commit'],
    ]) {
      const result = await runCli(repo, args, { env: noGit });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(
        'agent-state: git was not found on PATH (fix: install git, or add it to PATH)\n',
      );
    }
  });

  it('rejects an unknown manager or hook name', async () => {
    const repo = await stateRepo();
    const manager = await runCli(repo, ['hooks', 'install', '--manager', 'yarn']);
    expect(manager.code).toBe(2);
    const hooks = await runCli(repo, ['hooks', 'install', '--hooks', 'pre-commit,pre-push']);
    expect(hooks.code).toBe(2);
    expect(hooks.stderr).toContain('unknown hook "pre-push"');
  });

  it('documents install, uninstall, status and watch with examples', async () => {
    for (const args of [
      ['hooks', 'install'],
      ['hooks', 'uninstall'],
      ['hooks', 'status'],
      ['watch'],
    ]) {
      const help = await runCli(testdir(), [...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
    }
  });
});
