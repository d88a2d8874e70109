// kill -9 of a checkpoint while its tests run: the test process tree dies with it (a watchdog
// holds the group), and the temp file of its log in .agent/artifacts/ is swept by the next writer.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, gitdir, runCli } from '../helpers/fixtures.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, test: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const leaked: number[] = [];
afterAll(() => {
  for (const pid of leaked) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

describe('kill -9 of a checkpoint', () => {
  it('takes its test process tree with it and leaves no temp file after the next write', async () => {
    const repo = gitdir({ 'README.md': '# fixture\n' });
    expect((await runCli(repo, ['init', '--goal', 'Survive kill -9'])).code).toBe(0);
    // The test command: a shell that starts a long-running node process (a grandchild of the
    // checkpoint) which records its pid, prints one line and then stays quiet (a process that
    // keeps printing would die of the closed pipe anyway).
    const script = join(repo, 'slow-test.cjs');
    writeFileSync(
      script,
      "require('fs').writeFileSync(process.argv[2], String(process.pid));\n" +
        "console.log('testing');\nsetInterval(() => {}, 1000);\n",
    );
    const pidFile = join(repo, 'test.pid');
    writeFileSync(
      join(repo, '.agent', 'config.yaml'),
      `version: 1\ntest: '"${process.execPath}" slow-test.cjs test.pid; echo done'\ntest_timeout: 600\n`,
    );
    const checkpoint = spawn(process.execPath, [BIN, 'checkpoint'], {
      cwd: repo,
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    });
    await until('the test process to start', () => existsSync(pidFile));
    const testPid = Number(readFileSync(pidFile, 'utf8'));
    leaked.push(testPid);
    expect(alive(testPid)).toBe(true);
    const artifacts = join(repo, '.agent', 'artifacts');
    await until('the log to be written', () =>
      readdirSync(artifacts).some((n) => n.endsWith('.tmp')),
    );

    checkpoint.kill('SIGKILL');
    await new Promise((r) => checkpoint.once('exit', r));
    await until('the test process to die with the checkpoint', () => !alive(testPid), 10_000);

    // The killed checkpoint's half-written log is the only temp file; the next writer sweeps it.
    expect(readdirSync(artifacts).filter((n) => n.endsWith('.tmp'))).toHaveLength(1);
    expect((await runCli(repo, ['next', 'Try again'])).code).toBe(0);
    expect(readdirSync(artifacts).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
