import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import {
  commitEnv,
  commitFiles,
  GOALS,
  gitRun,
  linkAgentState,
  loggedEvents,
  packageCopy,
  stateRepo,
} from '../helpers/hooks.js';

const USER_HOOK = '#!/bin/sh\necho "user hook ran" >&2\n# the user keeps no final newline';

function install(repo: string, args: string[] = []) {
  return runCli(repo, ['hooks', 'install', '--json', ...args], { env: commitEnv() });
}

describe('plain git hooks', () => {
  it('keep an existing user hook running, block a Forbidden path, and uninstall restores it byte for byte', async () => {
    const repo = await stateRepo();
    const hookPath = join(repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookPath, USER_HOOK);
    chmodSync(hookPath, 0o750);

    const first = await install(repo);
    expect(first.code).toBe(0);
    const installed = JSON.parse(first.stdout) as {
      manager: string;
      changes: { file: string; action: string }[];
    };
    expect(installed.manager).toBe('git');
    expect(installed.changes.map((c) => [c.file, c.action])).toEqual([
      ['.git/hooks/pre-commit', 'updated'],
      ['.git/hooks/post-checkout', 'created'],
      ['.git/hooks/post-merge', 'created'],
    ]);
    const text = readFileSync(hookPath, 'utf8');
    expect(text.startsWith(`${USER_HOOK}\n# >>> agent-state >>>\n`)).toBe(true);
    expect(statSync(hookPath).mode & 0o777).toBe(0o750);

    const clean = commitFiles(repo, { 'src/server.js': 'export const port = 8080;\n' });
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain('user hook ran');
    expect(clean.stderr).not.toContain('agent-state');

    const blocked = commitFiles(repo, { 'src/storage/db.js': 'export const db = new Set();\n' });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('user hook ran');
    expect(blocked.stderr).toContain('agent-state pre-commit hook: commit blocked (1 problem)');
    expect(blocked.stderr).toContain('forbidden  src/storage/db.js');
    expect(blocked.stderr).toContain('rule: `src/storage/**` — the storage layer is frozen');
    expect(blocked.stderr).toContain('git restore --staged -- src/storage/db.js');
    expect(git(repo, 'log', '--format=%s', '-1')).toContain('src/server.js');

    const again = await install(repo);
    expect(
      (JSON.parse(again.stdout) as { changes: { action: string }[] }).changes.map((c) => c.action),
    ).toEqual(['unchanged', 'unchanged', 'unchanged']);

    const removed = await runCli(repo, ['hooks', 'uninstall', '--json']);
    expect(removed.code).toBe(0);
    expect(
      (JSON.parse(removed.stdout) as { changes: { action: string }[] }).changes.map(
        (c) => c.action,
      ),
    ).toEqual(['removed', 'deleted', 'deleted']);
    expect(readFileSync(hookPath, 'utf8')).toBe(USER_HOOK);
    expect(statSync(hookPath).mode & 0o777).toBe(0o750);
    expect(existsSync(join(repo, '.git', 'hooks', 'post-checkout'))).toBe(false);
    const twice = await runCli(repo, ['hooks', 'uninstall']);
    expect(twice.stdout).toContain('nothing changed');
  });

  it('validates the staged progress.yaml, not the working copy', async () => {
    const repo = await stateRepo();
    await install(repo);
    const progressPath = join(repo, '.agent', 'state', 'progress.yaml');
    const good = readFileSync(progressPath, 'utf8');
    writeFileSync(
      progressPath,
      good.replace('plan: []', 'plan:\n  - id: t1\n    title: Write it\n    status: finished'),
    );
    git(repo, 'add', '.agent/state/progress.yaml');
    writeFileSync(progressPath, good); // the working copy is valid again; the staged copy is not
    const blocked = gitRun(repo, ['commit', '-q', '-m', 'state']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(
      /invalid {2}\.agent\/state\/progress\.yaml:\d+:\d+: plan\[0\]\.status must be one of/,
    );

    git(repo, 'add', '.agent/state/progress.yaml'); // stage the valid copy
    writeFileSync(progressPath, 'version: [\n'); // an invalid working copy does not matter
    expect(gitRun(repo, ['commit', '-q', '--allow-empty', '-m', 'state']).code).toBe(0);
  });

  it('sees what `commit -a`, a partial commit and a rename out of the Forbidden zone really commit', async () => {
    const repo = await stateRepo();
    await install(repo);
    writeFiles(repo, { 'src/storage/db.js': 'edited, not staged\n', 'src/server.js': 'edited\n' });
    // git runs the hook on a temporary index (GIT_INDEX_FILE): the check must read that one.
    const all = gitRun(repo, ['commit', '-q', '-a', '-m', 'everything']);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('forbidden  src/storage/db.js');
    const partial = gitRun(repo, ['commit', '-q', '-m', 'only the server', '--', 'src/server.js']);
    expect(partial.code).toBe(0);
    git(repo, 'checkout', '--', 'src/storage/db.js');
    git(repo, 'mv', 'src/storage/db.js', 'src/db.js');
    const moved = gitRun(repo, ['commit', '-q', '-m', 'move it out']);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('this commit deletes a Forbidden path (matches src/storage/**)');
  });

  it('lets a commit through with AGENT_STATE=0 and a Forbidden path with AGENT_STATE_ALLOW_FORBIDDEN=1', async () => {
    const repo = await stateRepo();
    await install(repo);
    const skipped = commitFiles(repo, { 'src/storage/db.js': 'one\n' }, { AGENT_STATE: '0' });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toBe('');
    const allowed = commitFiles(
      repo,
      { 'src/storage/db.js': 'two\n' },
      { AGENT_STATE_ALLOW_FORBIDDEN: '1' },
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('forbidden (allowed)  src/storage/db.js');
  });

  // The agent could remove the rule and commit the file with it; only the user lifts a rule.
  it('judges Forbidden by the committed goals.md, and lifting a rule needs the approval', async () => {
    const repo = await stateRepo();
    await install(repo);
    const without = GOALS.replace(/^- `src\/storage.*\n/m, '');
    const both = commitFiles(repo, {
      '.agent/state/goals.md': without,
      'src/storage/db.js': 'one\n',
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('forbidden  src/storage/db.js');
    expect(both.stderr).toMatch(
      /forbidden {2}\.agent\/state\/goals\.md: this commit removes the Forbidden rule `src\/storage\/\*\*`/,
    );
    git(repo, 'reset', '-q');
    // Not staged, only in the working copy: the committed rule still holds.
    const working = commitFiles(repo, { 'src/storage/db.js': 'two\n' });
    expect(working.code).toBe(1);
    git(repo, 'reset', '-q');
    writeFiles(repo, { 'src/storage/db.js': 'export const db = new Map();\n' });
    const lifted = commitFiles(
      repo,
      { '.agent/state/goals.md': without },
      { AGENT_STATE_ALLOW_FORBIDDEN: '1' },
    );
    expect(lifted.code).toBe(0);
    expect(commitFiles(repo, { 'src/storage/db.js': 'three\n' }).code).toBe(0);
    // Adding a rule needs nothing, and holds in the same commit.
    const added = commitFiles(repo, {
      '.agent/state/goals.md': `${without}- \`docs/**\`\n`,
      'docs/x.md': 'x\n',
    });
    expect(added.code).toBe(1);
    expect(added.stderr).toContain('forbidden  docs/x.md');
  });

  it('exits 0 silently when agent-state is not installed any more', async () => {
    const repo = await stateRepo();
    const copy = packageCopy();
    // Install from a copy of the package, so that the hook points at a binary we can delete.
    const fromCopy = spawnSync(
      process.execPath,
      [join(copy, 'bin', 'agent-state.js'), 'hooks', 'install'],
      {
        cwd: repo,
        env: commitEnv(),
        encoding: 'utf8',
      },
    );
    expect(fromCopy.status).toBe(0);
    expect(readFileSync(join(repo, '.git', 'hooks', 'pre-commit'), 'utf8')).toContain(
      `'${copy}/bin/agent-state.js'`,
    );
    expect(commitFiles(repo, { 'src/storage/db.js': 'blocked while installed\n' }).code).toBe(1);
    git(repo, 'reset', '-q');
    rmSync(copy, { recursive: true, force: true });
    const commit = commitFiles(repo, { 'src/storage/db.js': 'nobody checks now\n' });
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe('');
  });

  it('exits 0 when the repository has no .agent/', async () => {
    const repo = gitdir({ 'src/storage/db.js': 'x\n' });
    expect((await install(repo)).code).toBe(0);
    const commit = commitFiles(repo, { 'src/storage/db.js': 'y\n' });
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe('');
  });

  it('warns about a completion marker going stale, and blocks with hooks.stale_markers: block', async () => {
    const repo = await stateRepo({ 'src/api.js': 'v1\n' });
    await install(repo);
    const { createHash } = await import('node:crypto');
    const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
    const progressPath = join(repo, '.agent', 'state', 'progress.yaml');
    const progress = readFileSync(progressPath, 'utf8').replace(
      'markers: {}',
      `markers:\n  t1:\n    at: "2026-01-01T00:00:00Z"\n    files:\n      src/api.js: "${sha('v2\n')}"`,
    );
    // The marker was refreshed for v2 before the commit: committing v2 is not stale.
    const fresh = commitFiles(repo, {
      '.agent/state/progress.yaml': progress,
      'src/api.js': 'v2\n',
    });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toBe('');

    const warned = commitFiles(repo, { 'src/api.js': 'v3\n' });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('stale marker (warning)  src/api.js');
    expect(warned.stderr).toContain('completion marker of t1');

    const config = readFileSync(join(repo, '.agent', 'config.yaml'), 'utf8').replace(
      'stale_markers: warn',
      'stale_markers: block',
    );
    const blocked = commitFiles(repo, { '.agent/config.yaml': config, 'src/api.js': 'v4\n' });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('stale marker  src/api.js');
  });

  it('records branch switches and merges in the local log and leaves the tree clean', async () => {
    const repo = await stateRepo();
    await install(repo);
    expect(gitRun(repo, ['checkout', '-q', '-b', 'feature']).code).toBe(0);
    commitFiles(repo, { 'src/server.js': 'feature\n' });
    gitRun(repo, ['checkout', '-q', 'main']);
    gitRun(repo, ['checkout', '-q', '--', 'src/server.js']); // a file checkout: not a branch switch
    expect(gitRun(repo, ['merge', '-q', '--no-edit', '--no-ff', 'feature']).code).toBe(0);
    const events = loggedEvents(repo, 'git.');
    expect(events.map((e) => [e.type, e.branch])).toEqual([
      ['git.checkout', 'feature'],
      ['git.checkout', 'main'],
      ['git.merge', 'main'],
    ]);
    expect(events[0]).toMatchObject({
      actor: 'system',
      from: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(events[2]!.squash).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it("turns a branch switch after the checkpoint into the status bar's git.changed signal", async () => {
    const repo = await stateRepo();
    await install(repo);
    const signals = async () =>
      (
        JSON.parse((await runCli(repo, ['status', '--json'])).stdout) as {
          signals: { id: string; message: string }[];
        }
      ).signals.filter((s) => s.id === 'git.changed');
    expect((await runCli(repo, ['checkpoint', '--no-test', '-m', 'before the switch'])).code).toBe(
      0,
    );
    expect(await signals()).toEqual([]);
    expect(gitRun(repo, ['checkout', '-q', '-b', 'feature']).code).toBe(0);
    expect((await signals()).map((s) => s.message)).toEqual([
      expect.stringMatching(
        /^Switched to branch feature \([0-9a-f]{12}\) since the last checkpoint: run `agent-state verify`/,
      ),
    ]);
    expect((await runCli(repo, ['checkpoint', '--no-test', '-m', 'on feature'])).code).toBe(0);
    expect(await signals()).toEqual([]);
  });

  it('refuses a hook in another language and a symlinked hook, changing nothing', async () => {
    const repo = await stateRepo();
    const hookPath = join(repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookPath, '#!/usr/bin/env python3\nprint("hi")\n', { mode: 0o755 });
    const python = await runCli(repo, ['hooks', 'install', '--hooks', 'pre-commit']);
    expect(python.code).toBe(2);
    expect(python.stderr).toContain('.git/hooks/pre-commit is a python3 script');
    expect(readFileSync(hookPath, 'utf8')).toBe('#!/usr/bin/env python3\nprint("hi")\n');
    rmSync(hookPath);
    writeFiles(repo, { 'scripts/hook.sh': '#!/bin/sh\n' });
    symlinkSync(join(repo, 'scripts', 'hook.sh'), hookPath);
    const linked = await runCli(repo, ['hooks', 'install', '--hooks', 'pre-commit']);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(readFileSync(join(repo, 'scripts', 'hook.sh'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('puts portable hooks in a core.hooksPath directory inside the work tree', async () => {
    const repo = await stateRepo();
    git(repo, 'config', 'core.hooksPath', '.githooks');
    const result = JSON.parse((await install(repo, ['--hooks', 'pre-commit'])).stdout) as {
      reason: string;
      changes: { file: string }[];
    };
    expect(result.reason).toContain('core.hooksPath is .githooks');
    expect(result.changes[0]!.file).toBe('.githooks/pre-commit');
    const text = readFileSync(join(repo, '.githooks', 'pre-commit'), 'utf8');
    expect(text).not.toContain('agent_state_js');
    expect(commitFiles(repo, { 'src/storage/db.js': 'x\n' }).code).toBe(0); // not installed here
    git(repo, 'reset', '-q', '--hard', 'HEAD~1');
    linkAgentState(repo);
    expect(commitFiles(repo, { 'src/storage/db.js': 'y\n' }).code).toBe(1);
  });

  it('reports status, including a hook git would skip', async () => {
    const repo = await stateRepo();
    await install(repo);
    const ok = JSON.parse((await runCli(repo, ['hooks', 'status', '--json'])).stdout) as {
      active: boolean;
      entries: { hook: string; installed: boolean }[];
    };
    expect(ok.active).toBe(true);
    expect(ok.entries.filter((e) => e.installed).map((e) => e.hook)).toEqual([
      'pre-commit',
      'post-checkout',
      'post-merge',
    ]);
    chmodSync(join(repo, '.git', 'hooks', 'pre-commit'), 0o644);
    const status = await runCli(repo, ['hooks', 'status']);
    expect(status.stdout).toContain('is not executable, so git skips it');
    expect(status.stdout).toContain('installed, but git will not run it');
  });
});
