// The store on real files and real processes: concurrent writers, crashes, hand-written comments,
// stale and busy locks.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initState } from '../../src/state/init.js';
import { statePaths } from '../../src/state/paths.js';
import { parseProgress } from '../../src/state/progress.js';
import { loadState } from '../../src/task/load-state.js';
import { updateProgress } from '../../src/task/update-progress.js';
import { addPlanItem } from '../../src/state/plan.js';
import { BIN, gitdir, runBin, runCli } from '../helpers/fixtures.js';

function progressOf(repo: string) {
  const parsed = parseProgress(readFileSync(statePaths(repo).progress, 'utf8'), 'progress.yaml');
  expect(parsed.problems).toEqual([]);
  return parsed.value!;
}

function leftovers(repo: string): string[] {
  const paths = statePaths(repo);
  return [...readdirSync(paths.agentDir), ...readdirSync(paths.stateDir)].filter(
    (n) => n === 'lock' || n.endsWith('.tmp'),
  );
}

describe('updateProgress', () => {
  it('never leaves an unparsable file when killed -9 mid-write', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    // A large plan makes each rewrite take a while.
    await updateProgress(
      (p) => {
        for (let i = 0; i < 3000; i++)
          addPlanItem(p, { title: `Item ${i} ${'lorem ipsum '.repeat(6)}` });
      },
      { cwd: repo },
    );
    const paths = statePaths(repo);
    let killedMidWrite = 0;
    for (let round = 0; round < 6; round++) {
      const child = spawn(process.execPath, [BIN, 'next', `round ${round} ${'x'.repeat(50)}`], {
        cwd: repo,
        stdio: 'ignore',
      });
      // Poll for the writer's temp file and kill the moment it appears: between write and rename.
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && child.exitCode === null) {
        if (readdirSync(paths.stateDir).some((n) => n.endsWith('.tmp'))) {
          child.kill('SIGKILL');
          killedMidWrite++;
          break;
        }
      }
      child.kill('SIGKILL');
      await new Promise((r) =>
        child.exitCode !== null || child.signalCode !== null ? r(null) : child.on('close', r),
      );
      const parsed = parseProgress(readFileSync(paths.progress, 'utf8'), 'progress.yaml');
      expect(parsed.problems).toEqual([]);
      expect(parsed.value!.plan).toHaveLength(3000);
    }
    expect(killedMidWrite).toBeGreaterThan(0);
    // The next writer takes over the dead writer's lock and sweeps its temp file.
    const result = await runCli(repo, ['next', 'after the crashes']);
    expect(result.code).toBe(0);
    expect(leftovers(repo)).toEqual([]);
    expect(progressOf(repo).next_action).toBe('after the crashes');
  }, 120_000);

  it('refuses a write that would make progress.yaml bigger than its readers accept, changing nothing', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const file = statePaths(repo).progress;
    const note = 'n'.repeat(1900);
    let refused: unknown;
    for (let batch = 0; batch < 20 && refused === undefined; batch++) {
      const before = readFileSync(file);
      try {
        await updateProgress(
          (p) => {
            for (let i = 0; i < 200; i++) {
              const item = addPlanItem(p, { title: `Item ${batch}-${i}` });
              item.note = note;
            }
          },
          { cwd: repo },
        );
      } catch (error) {
        refused = error;
        expect(readFileSync(file)).toEqual(before);
      }
    }
    expect(String(refused)).toMatch(
      /the change would make progress\.yaml 1\.\d MiB, over the 1 MiB every reader accepts/,
    );
    // What is there is what every reader reads.
    expect(loadState({ cwd: repo }).progress.plan!.length).toBeGreaterThanOrEqual(400);
    expect((await runCli(repo, ['status'])).code).toBe(0);
  }, 120_000);

  it('keeps a hand-written comment through `next` and `plan add`', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const file = statePaths(repo).progress;
    const original = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      original.replace(
        'stage: planning',
        '# decided with the user on Monday\nstage: planning # keep this',
      ),
    );
    expect((await runCli(repo, ['next', 'Write the test'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'Write the parser', '--id', 't1'])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# decided with the user on Monday\nstage: planning # keep this');
    expect(text).toContain('next_action: "Write the test"');
    expect(text.startsWith('# yaml-language-server: $schema=')).toBe(true);
  });

  it('writes nothing when nothing changed, and rejects a stale expectRevision', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const file = statePaths(repo).progress;
    const before = readFileSync(file, 'utf8');
    const result = await updateProgress(() => undefined, { cwd: repo });
    expect(result.changed).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await expect(
      updateProgress((p) => void (p.stage = 'x'), { cwd: repo, expectRevision: 7 }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const ok = await updateProgress((p) => void (p.stage = 'x'), { cwd: repo, expectRevision: 0 });
    expect(ok.progress.revision).toBe(1);
  });

  it('refuses a mutation that would make the file invalid, writing nothing', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const file = statePaths(repo).progress;
    const before = readFileSync(file, 'utf8');
    await expect(
      updateProgress((p) => void (p.stage = 'x'.repeat(500)), { cwd: repo }),
    ).rejects.toMatchObject({
      code: 'INVALID',
      message: expect.stringMatching(/would make progress\.yaml invalid: stage is longer than 200/),
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('the state lock', () => {
  it('takes over a lock whose owner is dead', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('close', r));
    writeFileSync(
      statePaths(repo).lock,
      JSON.stringify({
        pid: dead.pid,
        host: (await import('node:os')).hostname(),
        at: new Date().toISOString(),
        token: 'x',
      }),
    );
    const result = await runCli(repo, ['next', 'go']);
    expect(result.code).toBe(0);
    expect(existsSync(statePaths(repo).lock)).toBe(false);
  });

  it('takes over a lock whose owner is alive but that is older than the stale age', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    // The holder is this very test process (alive); the lock says it was taken 2 minutes ago,
    // past the 60 s stale age.
    const at = new Date(Date.now() - 120_000).toISOString();
    writeFileSync(
      statePaths(repo).lock,
      JSON.stringify({
        pid: process.pid,
        host: (await import('node:os')).hostname(),
        at,
        token: 'old',
      }),
    );
    const result = await runCli(repo, ['next', 'x'], {
      env: { AGENT_STATE_LOCK_TIMEOUT_MS: '5000' },
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(progressOf(repo).next_action).toBe('x');
    expect(leftovers(repo)).toEqual([]);
  });

  it('gives up with exit 4 naming the holder when a live process holds it', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const at = new Date().toISOString();
    writeFileSync(
      statePaths(repo).lock,
      JSON.stringify({
        pid: process.pid,
        host: (await import('node:os')).hostname(),
        at,
        token: 'x',
      }),
    );
    const before = readFileSync(statePaths(repo).progress, 'utf8');
    // The real bin: the lock's timeout variable is read from the process's own environment.
    const result = await runBin(repo, ['next', 'go'], {
      env: { AGENT_STATE_LOCK_TIMEOUT_MS: '300' },
    });
    expect(result.code).toBe(4);
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^agent-state: state is busy: \\.agent/lock is held by pid ${process.pid} since ${at.replace(/\./g, '\\.')}; it did not change hands for 0\\.3 s \\(1 waiting\\) \\(fix: `,
      ),
    );
    expect(readFileSync(statePaths(repo).progress, 'utf8')).toBe(before);
    expect(loadState({ cwd: repo }).progress.next_action).toBe('');
  });
});

describe('the parse cache of a large progress.yaml', () => {
  // A 3,000-item plan: well over the size from which the parsed value is cached.
  function bigRepo(): string {
    const repo = gitdir();
    initState({ cwd: repo });
    const plan = Array.from(
      { length: 3000 },
      (_, i) =>
        `  - id: t${i + 1}\n    title: "Step ${i + 1}: paginate page ${i + 1}"\n    status: pending\n`,
    ).join('');
    writeFileSync(
      statePaths(repo).progress,
      `# a comment the tool keeps\nversion: 1\nrevision: 3\nstage: building\nplan:\n${plan}`,
    );
    return repo;
  }
  const cacheOf = (repo: string) => join(statePaths(repo).logDir, 'progress.json');
  type CacheFile = { version: string; text: string; value: unknown };

  it('gives the parsed value of the exact bytes it was made from, and nothing else', async () => {
    const repo = bigRepo();
    const first = loadState({ cwd: repo }).progress;
    expect(existsSync(cacheOf(repo))).toBe(true);
    expect(loadState({ cwd: repo }).progress).toEqual(first);
    expect(loadState({ cwd: repo }).progress).toEqual(progressOf(repo));
    // A hand edit of one byte: the cache is for other bytes and is not used.
    const file = statePaths(repo).progress;
    writeFileSync(file, readFileSync(file, 'utf8').replace('stage: building', 'stage: buildinG'));
    expect(loadState({ cwd: repo }).progress.stage).toBe('buildinG');
    // A damaged cache is parsed around.
    writeFileSync(cacheOf(repo), '{"key": "nope", "val');
    expect(loadState({ cwd: repo }).progress.stage).toBe('buildinG');
    // A cache made for other bytes or by another version is not used.
    const cache = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as CacheFile;
    const forged = { revision: 99 };
    writeFileSync(
      cacheOf(repo),
      JSON.stringify({ ...cache, text: `${cache.text} `, value: forged }),
    );
    expect(loadState({ cwd: repo }).progress.revision).toBe(3);
    writeFileSync(cacheOf(repo), JSON.stringify({ ...cache, version: '0.0.0', value: forged }));
    expect(loadState({ cwd: repo }).progress.revision).toBe(3);
    writeFileSync(cacheOf(repo), JSON.stringify({ ...cache, value: forged }));
    expect(loadState({ cwd: repo }).progress.revision).toBe(99);
  });

  it('a write through the cache keeps comments and leaves a cache of the new bytes', async () => {
    const repo = bigRepo();
    loadState({ cwd: repo });
    await updateProgress((p) => addPlanItem(p, { title: 'One more' }), { cwd: repo });
    const text = readFileSync(statePaths(repo).progress, 'utf8');
    expect(text.startsWith('# a comment the tool keeps\n')).toBe(true);
    const fresh = progressOf(repo);
    expect(fresh.plan).toHaveLength(3001);
    expect(fresh.revision).toBe(4);
    const cache = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as { value: unknown };
    expect(cache.value).toEqual(fresh);
    expect(loadState({ cwd: repo }).progress).toEqual(fresh);
  });

  it('is made by init and each write of an ordinary progress.yaml too (not by a read), holding the text', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const made = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as CacheFile;
    expect(made.text).toBe(readFileSync(statePaths(repo).progress, 'utf8'));
    rmSync(cacheOf(repo));
    loadState({ cwd: repo });
    expect(existsSync(cacheOf(repo))).toBe(false);
    await updateProgress((p) => addPlanItem(p, { title: 'One' }), { cwd: repo });
    const progress = loadState({ cwd: repo }).progress;
    const cache = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as CacheFile;
    expect(cache.text).toBe(readFileSync(statePaths(repo).progress, 'utf8'));
    expect(cache.value).toEqual(progress);
  });
});

describe('the sweep of temp files', () => {
  it('removes what dead writers left in artifacts/ and log/, never a live writer’s file', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const paths = statePaths(repo);
    // A process that has exited: its pid is free (the kernel does not reuse it at once).
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    mkdirSync(paths.artifactsDir, { recursive: true });
    mkdirSync(paths.logDir, { recursive: true });
    const files = {
      deadArtifact: join(
        paths.artifactsDir,
        `.20261130T120000Z-ab12cd-test.log.${dead}.1f2e3d4c0.tmp`,
      ),
      liveArtifact: join(
        paths.artifactsDir,
        `.20261130T120000Z-ef34ab-test.log.${process.pid}.5a6b7c8d0.tmp`,
      ),
      deadLog: join(paths.logDir, `.status.json.${dead}.9e8d7c6b0.tmp`),
      userFile: join(paths.artifactsDir, 'notes.tmp'),
    };
    for (const file of Object.values(files)) writeFileSync(file, 'partial');
    await updateProgress((p) => addPlanItem(p, { title: 'One' }), { cwd: repo });
    expect(existsSync(files.deadArtifact)).toBe(false);
    expect(existsSync(files.deadLog)).toBe(false);
    expect(existsSync(files.liveArtifact)).toBe(true);
    expect(existsSync(files.userFile)).toBe(true);
  });
});
