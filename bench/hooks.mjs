// How much a commit pays for the pre-commit hook: `agent-state hook pre-commit` against the
// floor any Node hook pays (`node -e 0` + `git diff --cached --name-only`), interleaved runs on
// a 100k-file repository with 10 staged files. Target: ratio of medians ≤ 2.0.
// Usage: node bench/hooks.mjs [runs]   (npm run build first)
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { GIT_ENV, bigRepo, stageFiles, unstage, git } from './fixtures/hooks-100k.mjs';
import { BIN, median } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 15);
const TARGET = 2.0;

function timed(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function run(cwd, cmd, args) {
  const result = spawnSync(cmd, args, { cwd, env: GIT_ENV, encoding: 'utf8' });
  if (result.status !== 0 && !(cmd === process.execPath && result.status === 1))
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result;
}

const baseline = (repo) =>
  timed(() => {
    run(repo, process.execPath, ['-e', '0']);
    run(repo, 'git', ['diff', '--cached', '--name-only']);
  });
const hook = (repo) => timed(() => run(repo, process.execPath, [BIN, 'hook', 'pre-commit']));

function scenario(repo, name, prepare) {
  prepare();
  const check = run(repo, process.execPath, [BIN, 'hook', 'pre-commit', '--json']);
  const result = JSON.parse(check.stdout);
  // Warm the page cache.
  for (let i = 0; i < 2; i++) {
    baseline(repo);
    hook(repo);
  }
  const base = [];
  const ours = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    if (i % 2 === 0) {
      base.push(baseline(repo));
      ours.push(hook(repo));
    } else {
      ours.push(hook(repo));
      base.push(baseline(repo));
    }
  }
  unstage(repo);
  const ratio = median(ours) / median(base);
  console.log(
    `${name.padEnd(44)} hook ${median(ours).toFixed(0).padStart(4)} ms   baseline ${median(base).toFixed(0).padStart(4)} ms   ratio ${ratio.toFixed(2)}   (staged ${result.staged}, findings ${result.findings.length})`,
  );
  return ratio;
}

const repo = bigRepo();
const files = git(repo, 'ls-files').split('\n').length - 1;
console.log(
  `agent-state hook pre-commit vs node -e 0 + git diff --cached --name-only (${files} files, ${RUNS} interleaved runs, medians)`,
);
const main = scenario(repo, '10 staged files', () => stageFiles(repo, 10, 'a'));
scenario(repo, '10 staged files, progress.yaml among them', () => {
  stageFiles(repo, 9, 'b');
  appendFileSync(`${repo}/.agent/state/progress.yaml`, '# edited\n');
  git(repo, 'add', '.agent/state/progress.yaml');
});
console.log(
  `target: ratio ≤ ${TARGET} for 10 staged files → ${main <= TARGET ? 'met' : 'NOT MET'}`,
);
process.exitCode = main <= TARGET ? 0 : 1;
