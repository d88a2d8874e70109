// Git moves on a real repository (issue 20): ordinary git moves after a checkpoint — commits that
// add, delete and rename files, a branch switch and back, a branch without the committed state,
// stash with and without state writes in between, a revert of an approved Forbidden commit, a
// resumed session — each run with the real bin, real git and the real hooks, and what verify,
// status and boot say afterwards. The recovery scenarios (scenarios.test.ts) hold the levels.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../helpers/fixtures.js';
import { Session } from './scenarios/session.js';

const T = 120_000;

// git with the env of a person who approves a Forbidden change once.
function approvedGit(repo: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: repo,
    env: {
      ...process.env,
      AGENT_STATE_ALLOW_FORBIDDEN: '1',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  });
}

const forbiddenFindings = async (s: Session) =>
  (await verifyJson(s)).findings.filter((f) => f.kind === 'forbidden').map((f) => f.path);

async function verifyJson(s: Session): Promise<{
  ok: boolean;
  drift: { files: { path: string; change: string; from?: string }[] } | null;
  findings: { kind: string; message: string; fix: string; path?: string }[];
}> {
  const result = await runCli(s.repo, ['verify', '--json']);
  return JSON.parse(result.stdout);
}

describe('git life', () => {
  it(
    'files added, deleted and renamed by commits are called so in verify and the evidence',
    async () => {
      const s = await Session.start({ 'src/old-name.js': 'export const a = 1;\n' });
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      s.humanEdit('src/added.js', 'export const added = true;\n');
      git(s.repo, 'rm', '-q', 'README.md');
      git(s.repo, 'mv', 'src/old-name.js', 'src/new-name.js');
      git(s.repo, 'add', '-A');
      git(s.repo, 'commit', '-q', '-m', 'Add, delete and rename');
      const report = await verifyJson(s);
      expect(report.drift?.files).toEqual([
        { path: 'README.md', change: 'deleted' },
        { path: 'src/added.js', change: 'added' },
        { path: 'src/new-name.js', change: 'renamed', from: 'src/old-name.js' },
      ]);
      const text = (await s.cliExpect(1, 'verify')).stdout;
      // Each commit is named once, in the finding.
      expect(text.split('Add, delete and rename').length - 1).toBe(1);
      expect(text).toContain(
        '3 files changed since the checkpoint: README.md (deleted), src/added.js (added), src/new-name.js (renamed from src/old-name.js)',
      );
      const done = JSON.parse((await s.cli('checkpoint', '-m', 'After', '--json')).stdout) as {
        evidence: { file: string };
      };
      const body = readFileSync(join(s.repo, done.evidence.file), 'utf8');
      expect(body).toContain('  - 1 new commit\n');
      expect(body).toContain(
        'files: README.md (deleted), src/added.js (added), src/new-name.js (renamed from src/old-name.js)',
      );
    },
    T,
  );

  it(
    'files agent-state wrote itself (integrate, hooks install) are its own: no rebuild, relative paths',
    async () => {
      const s = await Session.start();
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      await s.cli('integrate', 'claude', '--mcp', '--bin', 'agent-state');
      git(s.repo, 'config', 'core.hooksPath', '.husky/_');
      const installed = await s.cli('hooks', 'install', '--manager', 'husky');
      // Every path it names is relative to the repository, as git names them.
      for (const line of installed.stdout
        .split('\n')
        .filter((l) => /^\s+(created|updated)/.test(l)))
        expect(line).not.toContain(s.repo);
      const boot = await s.boot('--json');
      const doc = JSON.parse(boot) as { level: number; level_reason: string; text: string };
      expect(doc.level).toBe(2);
      expect(doc.level_reason).toMatch(
        /^auto: no foreign drift, no restart loop; your uncheckpointed changes: \d+ files$/,
      );
      expect(doc.level_reason).toContain('5 files'); // .claude/settings.json, .mcp.json, .husky/*
      expect(doc.text).not.toContain('Changes that are not yours');
    },
    T,
  );

  it(
    "a rebase's own checkout of its base is no switch to a detached HEAD",
    async () => {
      const s = await Session.start();
      await s.cli('hooks', 'install');
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      git(s.repo, 'switch', '-q', '-c', 'side');
      s.humanEdit('side.txt', 'side\n');
      git(s.repo, 'add', '-A');
      git(s.repo, 'commit', '-q', '-m', 'Side');
      git(s.repo, 'switch', '-q', 'main');
      s.humanEdit('main.txt', 'main\n');
      git(s.repo, 'add', '-A');
      git(s.repo, 'commit', '-q', '-m', 'Main');
      git(s.repo, 'switch', '-q', 'side');
      git(s.repo, 'rebase', '-q', 'main');
      const status = (await s.cli('status')).stdout;
      expect(status).not.toContain('detached HEAD');
      expect(status).toContain('Switched to branch side');
    },
    T,
  );

  it(
    'switch and switch back: the signal holds while the branch differs, and goes when it is back',
    async () => {
      const s = await Session.start();
      await s.cli('hooks', 'install');
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      git(s.repo, 'switch', '-q', '-c', 'tmp');
      const away = (await s.cli('status')).stdout;
      expect(away).toContain('Switched to branch tmp');
      git(s.repo, 'switch', '-q', 'main');
      expect((await s.cli('verify')).stdout).toContain('The state matches the tree.');
      for (const args of [['status'], ['status', '--format', 'xml'], ['statusline']])
        expect((await s.cli(...args)).stdout).not.toContain('Switched to branch');
      const prompt = await s.prompt();
      expect(prompt).not.toContain('Switched to branch');
    },
    T,
  );

  it(
    'a branch without the committed state says so and how to get back, and suggests no trap',
    async () => {
      const s = await Session.start();
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      // A branch from before the state was committed: .agent/log stays (git ignores it).
      git(s.repo, 'switch', '-q', '-c', 'old', 'HEAD~2');
      for (const args of [['status'], ['verify'], ['boot', '--dry-run']]) {
        const result = await s.cliExpect(3, ...args);
        expect(result.stderr).toContain('the agent-state state is not on this branch');
        expect(result.stderr).toContain('git switch -');
        expect(result.stderr).not.toContain('agent-state init');
        // .agent/.gitignore is not on this branch either: the local log shows as untracked.
        expect(result.stderr).toContain('untracked here: leave .agent/ out of any commit');
      }
      expect(git(s.repo, 'status', '--porcelain')).toContain('?? .agent/');
      // The fix as printed works: back on the branch that has the state.
      git(s.repo, 'switch', '-q', '-');
      await s.cli('status');
    },
    T,
  );

  it(
    'a state stashed with `git stash -u` is named as possibly stashed, and `git stash pop` restores it',
    async () => {
      const s = await Session.start();
      // Not committed: `git stash -u` takes .agent/state/ and .agent/config.yaml with the rest.
      git(s.repo, 'rm', '-rq', '--cached', '.agent');
      git(s.repo, 'commit', '-qm', 'Keep the state out of git');
      git(s.repo, 'stash', '-q', '-u');
      const result = await s.cliExpect(3, 'status');
      expect(result.stderr).toContain('the agent-state state is not on this branch');
      expect(result.stderr).not.toContain('they are committed on another branch');
      expect(result.stderr).toContain('`git stash pop`');
      git(s.repo, 'stash', 'pop', '-q');
      await s.cli('status');
    },
    T,
  );

  it(
    'a revert of an approved Forbidden commit is no new violation; the approval is in the evidence',
    async () => {
      const s = await Session.start();
      await s.cli('hooks', 'install');
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      s.humanEdit('src/storage/db.js', 'export const db = new Map([[1, 1]]);\n');
      git(s.repo, 'add', '-A');
      approvedGit(s.repo, 'commit', '-q', '-m', 'Migrate the storage');
      const approved = git(s.repo, 'rev-parse', 'HEAD').trim();
      expect(await forbiddenFindings(s)).toEqual(['src/storage/db.js']);
      // The commit's approval is not the checkpoint's: git runs no hook for a cherry-pick, a
      // revert or --no-verify, so a plain checkpoint never absorbs a Forbidden change.
      const plain = await s.cliExpect(1, 'checkpoint', '-m', 'Absorb it');
      expect(plain.stdout + plain.stderr).toContain(
        'AGENT_STATE_ALLOW_FORBIDDEN=1 agent-state checkpoint',
      );
      const approve = { env: { AGENT_STATE_ALLOW_FORBIDDEN: '1' } };
      const accepted = await runCli(
        s.repo,
        ['checkpoint', '-m', 'Approved migration', '--commit', '--json'],
        approve,
      );
      expect(accepted.code, accepted.stderr).toBe(0);
      const done = JSON.parse(accepted.stdout) as { evidence: { file: string } };
      const body = readFileSync(join(s.repo, done.evidence.file), 'utf8');
      expect(body).toContain(
        `- Forbidden paths changed by commits and accepted: src/storage/db.js (${approved.slice(0, 7)} Migrate the storage)`,
      );
      expect((await verifyJson(s)).ok).toBe(true);
      // The revert restores the protected content: no new violation, and no loop.
      git(s.repo, 'revert', '--no-edit', approved);
      expect(await forbiddenFindings(s)).toEqual([]);
      await s.cli('checkpoint', '-m', 'Reverted', '--commit');
      expect((await verifyJson(s)).ok).toBe(true);
      // A change to other content is a violation all the same.
      s.humanEdit('src/storage/db.js', 'export const db = new Set();\n');
      git(s.repo, 'add', '-A');
      approvedGit(s.repo, 'commit', '-q', '-m', 'Another storage change');
      expect(await forbiddenFindings(s)).toEqual(['src/storage/db.js']);
    },
    T,
  );

  it(
    'stash without a state write in between: status and boot name what the stash holds; pop brings it back',
    async () => {
      const s = await Session.start();
      await s.cli('hooks', 'install');
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      await s.cli('next', 'Wire the options through');
      s.humanEdit('src/server.js', 'export const port = 3001;\n');
      git(s.repo, 'stash', '-q');
      const status = await s.cli('status', '--json');
      expect(JSON.parse(status.stdout).stashed).toEqual([
        {
          ref: 'stash@{0}',
          subject: expect.stringMatching(/^WIP on main/),
          files: ['.agent/state/progress.yaml'],
        },
      ]);
      expect((await s.cli('status')).stdout).toContain(
        'stash@{0} holds changes to .agent/state/progress.yaml',
      );
      const boot = await s.boot('--dry-run', '--level', '1');
      expect(boot).toContain('## State changes in a stash');
      expect(boot).toContain('`git stash pop` brings them back');
      git(s.repo, 'stash', 'pop', '-q');
      expect(JSON.parse((await s.cli('status', '--json')).stdout)).toMatchObject({
        next_action: 'Wire the options through',
        stashed: [],
      });
    },
    T,
  );

  it(
    'stash with a state write in between: the advice as printed makes the pop merge both',
    async () => {
      const s = await Session.start();
      await s.cli('hooks', 'install');
      await s.cli('checkpoint', '-m', 'Start', '--commit');
      await s.cli('plan', 'add', 'Write the changelog entry');
      git(s.repo, 'stash', '-q');
      await s.cli('next', 'Written while stashed');
      const text = (await s.cli('status')).stdout;
      const advice = /`(git commit -m "agent-state: state" -- \.agent\/state)`/.exec(text);
      expect(advice, text).not.toBeNull();
      // Without it git refuses, as the status says.
      expect(() => git(s.repo, 'stash', 'pop', '-q')).toThrow();
      execFileSync('sh', ['-c', advice![1]!], {
        cwd: s.repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'T',
          GIT_AUTHOR_EMAIL: 't@e',
          GIT_COMMITTER_NAME: 'T',
          GIT_COMMITTER_EMAIL: 't@e',
        },
      });
      git(s.repo, 'stash', 'pop', '-q');
      const plan = JSON.parse((await s.cli('plan', 'list', '--json')).stdout) as {
        plan: { title: string }[];
      };
      expect(plan.plan.map((i) => i.title)).toContain('Write the changelog entry');
      expect(JSON.parse((await s.cli('status', '--json')).stdout).next_action).toBe(
        'Written while stashed',
      );
      await s.cli('validate');
    },
    T,
  );
});
