// verify and checkpoint on real temp repositories: refusals write nothing; a recorded
// checkpoint equals a fresh fingerprint; commits, branch switches and forbidden paths are found.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpoint } from '../../src/checkpoint/checkpoint.js';
import { collectFingerprint } from '../../src/fingerprint/collect.js';
import { markDone } from '../../src/markers/mark-done.js';
import { initState } from '../../src/state/init.js';
import { addPlanItem } from '../../src/state/plan.js';
import { loadState } from '../../src/task/load-state.js';
import { updateProgress } from '../../src/task/update-progress.js';
import { verify } from '../../src/verify/verify.js';
import { git, gitdir, testdir } from '../helpers/fixtures.js';

const GOALS = `# Task

Keep the storage layer untouched.

## Forbidden

- \`src/storage/**\` — frozen interface
`;

async function project(test: string | undefined = undefined): Promise<string> {
  const repo = gitdir({
    'src/app.ts': 'app\n',
    'src/storage/db.ts': 'db\n',
    'package.json': '{}\n',
  });
  initState({ cwd: repo, test });
  writeFileSync(join(repo, '.agent/state/goals.md'), GOALS);
  await updateProgress((p) => void addPlanItem(p, { title: 'App', id: 't1' }), { cwd: repo });
  return repo;
}

// A killed process may linger as a zombie when PID 1 does not reap orphans (containers).
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Every file under .agent/state and .agent/config.yaml, with its bytes. */
function stateSnapshot(repo: string): Record<string, string> {
  const out: Record<string, string> = {
    config: readFileSync(join(repo, '.agent/config.yaml'), 'utf8'),
  };
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(repo, rel), { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(join(repo, path), 'utf8');
    }
  };
  walk('.agent/state');
  return out;
}

describe('checkpoint', () => {
  it('refuses when the tests fail: exit info, state byte-identical, no evidence', async () => {
    const repo = await project(
      'node -e "console.log(\'Tests: 1 failed, 2 passed, 3 total\'); process.exit(3)"',
    );
    const before = stateSnapshot(repo);
    const result = await checkpoint({ cwd: repo });
    expect(result).toMatchObject({
      ok: false,
      refused: 'tests',
      test: { exit_code: 3, passed: 2, failed: 1, ok: false },
    });
    expect(stateSnapshot(repo)).toEqual(before);
    expect(readFileSync(join(repo, result.test!.log.path), 'utf8')).toContain('1 failed');
    const allowed = await checkpoint({ cwd: repo, allowFailing: true });
    expect(allowed.ok).toBe(true);
    expect(loadState({ cwd: repo }).progress.stamp?.last_test).toMatchObject({
      exit_code: 3,
      failed: 1,
    });
  });

  it('refuses when a marker is stale, and when a dirty, staged or untracked file is forbidden', async () => {
    const repo = await project();
    await markDone('t1', { cwd: repo, files: ['src/app.ts'] });
    writeFileSync(join(repo, 'src/app.ts'), 'changed\n');
    let before = stateSnapshot(repo);
    const stale = await checkpoint({ cwd: repo });
    expect(stale).toMatchObject({
      ok: false,
      refused: 'verify',
      findings: [{ kind: 'stale_marker', id: 't1' }],
    });
    expect(stateSnapshot(repo)).toEqual(before);

    await markDone('t1', { cwd: repo, files: ['src/app.ts'] });
    before = stateSnapshot(repo);
    for (const setup of [
      () => writeFileSync(join(repo, 'src/storage/db.ts'), 'edited\n'),
      () => git(repo, 'add', 'src/storage/db.ts'),
      () => {
        git(repo, 'restore', '--staged', '--worktree', 'src/storage/db.ts');
        writeFileSync(join(repo, 'src/storage/new.ts'), 'new\n');
      },
    ]) {
      setup();
      const result = await checkpoint({ cwd: repo, test: false });
      expect(result.refused).toBe('verify');
      expect(result.findings[0]).toMatchObject({
        kind: 'forbidden',
        path: expect.stringMatching(/^src\/storage\//),
      });
      expect(stateSnapshot(repo)).toEqual(before);
    }
  });

  it('records a fingerprint equal to a fresh one', async () => {
    const repo = await project('node -e "console.log(\'# pass 4\\n# fail 0\')"');
    writeFileSync(join(repo, 'src/app.ts'), 'work in progress\n');
    writeFileSync(join(repo, 'notes.md'), 'untracked\n');
    const result = await checkpoint({
      cwd: repo,
      summary: 'First slice',
      next: 'Write the docs',
      stage: 'implementing',
    });
    expect(result).toMatchObject({ ok: true, checkpoint: 1, progress_changed: true, commit: null });
    expect(result.test).toMatchObject({ passed: 4, failed: 0, runner: 'node:test' });
    const { progress } = loadState({ cwd: repo });
    const fresh = (await collectFingerprint({ cwd: repo })).fingerprint;
    expect({ ...progress.fingerprint, at: '' }).toEqual({ ...fresh, at: '' });
    expect(Object.keys(fresh.dirty)).toEqual(['src/app.ts']);
    expect(Object.keys(fresh.untracked)).toEqual(['notes.md']);
    expect(progress).toMatchObject({
      next_action: 'Write the docs',
      stage: 'implementing',
      stamp: {
        checkpoints: 1,
        last_test: { passed: 4, failed: 0, exit_code: 0 },
      },
    });
    // The boot counters live in .agent/log/recovery.json, never in the committed stamp.
    expect(progress.stamp).not.toHaveProperty('stalled_boots');
    expect(progress.stamp).not.toHaveProperty('boots');
    expect(readdirSync(join(repo, '.agent/state/evidence'))).toEqual([
      expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{6}-first-slice\.md$/),
    ]);
    expect((await verify({ cwd: repo })).ok).toBe(true);
  });

  it('--commit commits only the state; verify is clean afterwards', async () => {
    const repo = await project();
    writeFileSync(join(repo, 'src/app.ts'), 'work in progress\n');
    git(repo, 'add', 'package.json');
    const result = await checkpoint({ cwd: repo, summary: 'Saved', commit: true });
    expect(result.commit).toMatchObject({ sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(git(repo, 'log', '-1', '--format=%s')).toMatch(
      /^chore\(agent-state\): checkpoint 1 — Saved/,
    );
    expect(
      git(repo, 'show', '--name-only', '--format=', 'HEAD')
        .split('\n')
        .filter(Boolean)
        .every((f) => f.startsWith('.agent/')),
    ).toBe(true);
    expect(git(repo, 'status', '--porcelain', '--', '.agent')).toBe('');
    // The user's own change stays uncommitted.
    expect(git(repo, 'status', '--porcelain', '--', 'src/app.ts')).toMatch(/M src\/app.ts/);
    const report = await verify({ cwd: repo });
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('says whether the progress changed since the previous checkpoint', async () => {
    const repo = await project();
    expect((await checkpoint({ cwd: repo })).progress_changed).toBe(true);
    expect((await checkpoint({ cwd: repo })).progress_changed).toBe(false);
    expect((await checkpoint({ cwd: repo, next: 'Something new' })).progress_changed).toBe(true);
    expect(loadState({ cwd: repo }).progress.stamp).toMatchObject({ checkpoints: 3 });
  });

  it('moves the boot counters of a 0.1.0 stamp into the local recovery record', async () => {
    const repo = await project();
    const file = join(repo, '.agent/state/progress.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /stamp:\n( {2}.*\n)*/,
        'stamp:\n  boots: 7\n  checkpoints: 0\n  last_boot: "2026-11-30T10:00:00.000Z"\n  last_checkpoint: null\n  recovery_level: 2\n  stalled_boots: 2\n  compactions: 3\n  last_compaction: "2026-11-30T09:00:00.000Z"\n',
      ),
    );
    expect(loadState({ cwd: repo }).progress.stamp).toMatchObject({ boots: 7, compactions: 3 });
    expect((await checkpoint({ cwd: repo })).ok).toBe(true);
    const { stamp } = loadState({ cwd: repo }).progress;
    for (const key of ['boots', 'last_boot', 'recovery_level', 'stalled_boots', 'compactions'])
      expect(stamp).not.toHaveProperty(key);
    expect(stamp).toMatchObject({ checkpoints: 1 });
    expect(JSON.parse(readFileSync(join(repo, '.agent/log/recovery.json'), 'utf8'))).toMatchObject({
      boots: 7,
      last_boot: '2026-11-30T10:00:00.000Z',
      recovery_level: 2,
      stalled_boots: 2,
      compactions: 3,
      last_compaction: '2026-11-30T09:00:00.000Z',
    });
  });

  it('kills the whole test process tree on abort and writes nothing', async () => {
    const repo = await project(`sh -c 'sleep 30 & echo $! > grandchild.pid; wait'`);
    const before = stateSnapshot(repo);
    const controller = new AbortController();
    const pidFile = join(repo, 'grandchild.pid');
    const running = checkpoint({ cwd: repo, signal: controller.signal });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '')
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    await new Promise((r) => setTimeout(r, 200));
    expect(isRunning(pid)).toBe(false);
    expect(stateSnapshot(repo)).toEqual(before);
    expect(
      existsSync(join(repo, '.agent/artifacts')) ? readdirSync(join(repo, '.agent/artifacts')) : [],
    ).toEqual([]);
  });

  it('kills the test at test_timeout and refuses', async () => {
    const repo = await project('sleep 20');
    writeFileSync(
      join(repo, '.agent/config.yaml'),
      'version: 1\ntest: sleep 20\ntest_timeout: 1\n',
    );
    const started = Date.now();
    const result = await checkpoint({ cwd: repo });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({
      ok: false,
      refused: 'tests',
      test: { timed_out: true, ok: false },
    });
  });
});

describe('verify', () => {
  it('lists 3 new commits and a branch switch, from a subdirectory', async () => {
    const repo = await project();
    await checkpoint({ cwd: repo, commit: true });
    for (let i = 1; i <= 3; i++) {
      writeFileSync(join(repo, 'src/app.ts'), `v${i}\n`);
      git(repo, 'commit', '-qam', `Change number ${i}`);
    }
    git(repo, 'switch', '-qc', 'feature');
    const report = await verify({ cwd: join(repo, 'src') });
    expect(report.ok).toBe(false);
    expect(report.drift?.head?.commits?.map((c) => c.subject)).toEqual([
      'Change number 3',
      'Change number 2',
      'Change number 1',
    ]);
    expect(report.drift?.branch).toEqual({ from: 'main', to: 'feature' });
    expect(report.drift?.files).toEqual([{ path: 'src/app.ts', change: 'modified' }]);
    expect(report.findings.map((f) => f.kind)).toEqual(['drift', 'drift', 'drift']);
    expect(report.findings[0]?.message).toMatch(/3 new commits/);
  });

  it('reports a forbidden file committed since the checkpoint, and key file changes', async () => {
    const repo = await project();
    await checkpoint({ cwd: repo });
    writeFileSync(join(repo, 'src/storage/db.ts'), 'changed\n');
    writeFileSync(join(repo, 'package.json'), '{"x":1}\n');
    git(repo, 'commit', '-qam', 'Touch storage');
    const report = await verify({ cwd: repo });
    expect(report.forbidden).toMatchObject([
      { path: 'src/storage/db.ts', source: 'changed', glob: 'src/storage/**' },
    ]);
    expect(report.drift?.key_files).toEqual([{ path: 'package.json', change: 'modified' }]);
  });

  it('works in a linked worktree and outside git', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    const linked = join(testdir(), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', linked);
    initState({ cwd: linked });
    await checkpoint({ cwd: linked });
    expect((await verify({ cwd: linked })).ok).toBe(true);
    writeFileSync(join(linked, 'a.txt'), 'b\n');
    expect((await verify({ cwd: linked })).drift?.files).toEqual([
      { path: 'a.txt', change: 'modified' },
    ]);

    const plain = testdir({ 'x.txt': '1\n' });
    initState({ cwd: plain });
    await checkpoint({ cwd: plain });
    expect((await verify({ cwd: plain })).ok).toBe(true);
    mkdirSync(join(plain, 'new'));
    writeFileSync(join(plain, 'new/y.txt'), '2\n');
    const report = await verify({ cwd: plain });
    expect(report.ok).toBe(false);
    expect(report.drift?.unlisted[0]).toMatch(/listing changed/);
  });

  it('reports invalid state files instead of checking further', async () => {
    const repo = await project();
    writeFileSync(join(repo, '.agent/state/progress.yaml'), 'version: 1\nrevision: -1\n');
    const report = await verify({ cwd: repo });
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({ file: '.agent/state/progress.yaml', line: 2 });
  });
});
