// Why git runs through our own runner (src/git/exec-git.ts) and not simple-git: the cost of each
// on the paths a hook pays for. (1) A process that loads the runner and runs one
// `git status --porcelain=v2 -z --branch` (what verify and boot's drift need), versus the same
// with simple-git, versus `node -e 0` plus that git command alone, interleaved, medians.
// (2) In one process, the time per call of `git rev-parse HEAD` through each, after a warm-up.
// Usage: node bench/git-runner.mjs [--runs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, interleave, median, report } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 21;
const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-git-'));
const runner = pathToFileURL(join(ROOT, 'dist', 'git', 'exec-git.js')).href;
const STATUS = ['status', '--porcelain=v2', '-z', '--branch'];
// Resolved here: the measured processes run in the temporary repository.
const simpleGitUrl = JSON.stringify(import.meta.resolve('simple-git'));
try {
  execFileSync('git', ['init', '-q'], { cwd: repo });
  for (let i = 0; i < 200; i++) writeFileSync(join(repo, `f${i}.txt`), `${i}\n`);
  execFileSync('git', ['add', '.'], { cwd: repo });
  execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'init'], {
    cwd: repo,
  });
  const node = (code) => ({
    cmd: process.execPath,
    args: ['--input-type=module', '-e', code],
    cwd: repo,
  });
  const medians = interleave(
    {
      ours: node(
        `const { runGit } = await import(${JSON.stringify(runner)}); runGit(${JSON.stringify(STATUS)}, { cwd: process.cwd() });`,
      ),
      simple: node(
        `const { simpleGit } = await import(${simpleGitUrl}); await simpleGit(process.cwd()).raw(${JSON.stringify(STATUS)});`,
      ),
      node: node('0'),
      git: { cmd: 'git', args: STATUS, cwd: repo },
    },
    { runs },
  );
  console.log(`one git status in a fresh process (${runs} interleaved runs, medians)`);
  const floor = medians.node + medians.git;
  report('exec-git / (node -e 0 + git status)', medians.ours, floor);
  report('simple-git / (node -e 0 + git status)', medians.simple, floor);
  report('simple-git / exec-git', medians.simple, medians.ours);

  // Per call, in one warm process.
  const perCall = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
      const { runGit, runGitAsync } = await import(${JSON.stringify(runner)});
      const { simpleGit } = await import(${simpleGitUrl});
      const git = simpleGit(process.cwd());
      const time = async (fn) => { for (let i = 0; i < 5; i++) await fn(); const t = []; for (let i = 0; i < 40; i++) { const s = performance.now(); await fn(); t.push(performance.now() - s); } return t; };
      const args = ['rev-parse', 'HEAD'];
      const out = {
        sync: await time(() => runGit(args, { cwd: process.cwd() })),
        async: await time(() => runGitAsync(args, { cwd: process.cwd() })),
        simple: await time(() => git.raw(args)),
      };
      console.log(JSON.stringify(out));`,
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  const times = JSON.parse(perCall.stdout);
  console.log('per call of `git rev-parse HEAD` in one process (40 calls, medians)');
  report('simple-git / exec-git runGit (sync)', median(times.simple), median(times.sync));
  report('simple-git / exec-git runGitAsync', median(times.simple), median(times.async));
} finally {
  rmSync(repo, { recursive: true, force: true });
}
