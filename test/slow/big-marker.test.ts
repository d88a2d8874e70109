// A completion marker over 50,000 files (issue 20), end to end: recorded, kept out of progress.yaml
// (under 64 KiB), read by status, boot, verify, check, validate and the pre-commit hook, which
// names the one edited file, and refreshed with the very command the STALE fix prints. A load
// test: it runs in the slow tier (.ci/run), not in `npm test`.
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentRepo, cli, commitAll, fixCommand, gitTry } from '../helpers/agents.js';
import { git, runCli, writeFiles } from '../helpers/fixtures.js';

describe('a completion marker over 50,000 files', () => {
  it('works, keeps progress.yaml under 64 KiB, names the one edited file and refreshes', async () => {
    const repo = await agentRepo('Everything in src stays done');
    // No background gc racing the removal of 50,000 loose objects at the end.
    git(repo, 'config', 'gc.auto', '0');
    const COUNT = 50_000;
    for (let d = 0; d < 100; d++) {
      const files: Record<string, string> = {};
      for (let i = d; i < COUNT; i += 100) files[`src/d${d}/f${i}.txt`] = `file ${i}\n`;
      writeFiles(repo, files);
    }
    commitAll(repo, '50,000 files');
    await cli(repo, ['plan', 'add', 'Everything in src', '--id', 't1']);
    const done = JSON.parse(await cli(repo, ['done', 't1', '--files', 'src/**', '--json'])) as {
      files: number;
    };
    expect(done.files).toBe(COUNT);
    expect(statSync(join(repo, '.agent/state/progress.yaml')).size).toBeLessThan(64 * 1024);
    commitAll(repo, 'done t1');
    for (const args of [['status'], ['boot'], ['verify'], ['check', 't1'], ['validate']]) {
      const run = await runCli(repo, args);
      expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
    }
    writeFileSync(join(repo, 'src/d42/f4242.txt'), 'edited\n');
    // The pre-commit hook reads the list too, and names the fix.
    const hook = gitTry(repo, 'commit', '-q', '-am', 'edit one of 50,000');
    expect(hook.code).toBe(0);
    expect(hook.stderr).toContain('src/d42/f4242.txt, which the completion marker of t1');
    expect(hook.stderr).toContain('agent-state done t1 --refresh');
    const stale = await runCli(repo, ['check', 't1']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('src/d42/f4242.txt changed');
    const refreshed = await runCli(repo, fixCommand(stale.stdout, 't1'));
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const again = await runCli(repo, ['check', 't1']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('50000 files unchanged');
    rmSync(repo, { recursive: true, force: true }); // within the test's time, not the hook's
  }, 600_000);
});
