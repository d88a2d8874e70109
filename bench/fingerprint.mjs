// Benchmark of fingerprinting (issue 3): generates git repositories of small files under
// .bench/ (git-ignored; reused between runs), then compares, with interleaved runs and ratios of
// medians:
//   - `agent-state verify` vs `git status --porcelain=v2 -z` on the same repository (target ≤ 1.5
//     on 100k files);
//   - `agent-state done t1 --files 'src/**'` over 1,000 files vs one `git hash-object` of the same
//     files (target ≤ 1.5), end to end and per file (the cost of 1,000 files minus the cost of 1);
//   - the peak RSS of `verify` on 100k files (target ≤ 150 MB).
// Usage: node bench/fingerprint.mjs [--sizes 20000,100000] [--runs 11]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const bin = join(root, 'bin', 'agent-state.js');
const probe = pathToFileURL(join(here, 'rss-probe.mjs')).href;
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const sizes = flag('--sizes', '20000,100000').split(',').map(Number);
const runs = Number(flag('--runs', '11'));
const SRC_FILES = 1000;
const FILES_PER_DIR = 100;

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  NO_COLOR: '1',
};

function git(cwd, ...gitArgs) {
  return execFileSync('git', gitArgs, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
}

function cli(cwd, cliArgs) {
  const result = spawnSync(process.execPath, [bin, ...cliArgs], { cwd, env, encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`agent-state ${cliArgs.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result;
}

// A repository of `count` small files: src/ holds 1,000 of them (for `done`), lib/ the rest;
// 100 files a directory. A checkpoint is recorded, then a few files are modified and added so
// that verify and git status both have something to report.
function makeRepo(count) {
  const dir = join(root, '.bench', `repo-${count}`);
  const ready = join(dir, '.bench-ready');
  if (existsSync(ready)) return dir;
  rmSync(dir, { recursive: true, force: true });
  console.log(`generating ${count} files in ${dir} ...`);
  for (let i = 0; i < count; i++) {
    const top = i < SRC_FILES ? 'src' : 'lib';
    const sub = join(dir, top, `d${Math.floor(i / FILES_PER_DIR)}`);
    if (i % FILES_PER_DIR === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), `file ${i}\n${'x'.repeat(i % 200)}\n`);
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench" }\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  cli(dir, ['init', '--goal', 'Benchmark the fingerprint']);
  cli(dir, ['plan', 'add', 'Produce the sources']);
  cli(dir, ['checkpoint', '--no-test', '-m', 'baseline']);
  for (let i = 0; i < 5; i++)
    writeFileSync(join(dir, 'lib', 'd10', `f${1000 + i}.txt`), `changed ${i}\n`);
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `new-${i}.txt`), `new ${i}\n`);
  writeFileSync(ready, '');
  git(dir, 'status', '--porcelain=v2', '-z'); // refresh the index once, as any user's git would
  return dir;
}

function timeRun(cwd, command, commandArgs, input) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, { cwd, env, input, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && !(command === process.execPath && result.status === 1))
    throw new Error(
      `${command} ${commandArgs.join(' ')} exited ${result.status}: ${result.stderr}`,
    );
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// Runs each case once per round, rounds interleaved, after one warm-up round; returns medians.
function compare(cwd, cases) {
  const times = cases.map(() => []);
  for (let round = -1; round < runs; round++) {
    cases.forEach((c, i) => {
      const ms = timeRun(cwd, c.command, c.args, c.input);
      if (round >= 0) times[i].push(ms);
    });
  }
  return times.map(median);
}

function peakRssMb(cwd, cliArgs) {
  const file = join(root, '.bench', `rss-${process.pid}.txt`);
  const peaks = [];
  for (let i = 0; i < 3; i++) {
    spawnSync(process.execPath, ['--import', probe, bin, ...cliArgs], {
      cwd,
      env: { ...env, AGENT_STATE_RSS_FILE: file },
    });
    peaks.push(Number(readFileSync(file, 'utf8')) / 1024);
  }
  rmSync(file, { force: true });
  return Math.max(...peaks);
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const verdict = (ok) => (ok ? 'ok' : 'OVER TARGET');
const results = [];

for (const size of sizes) {
  const dir = makeRepo(size);
  const node = process.execPath;
  const [status, verify] = compare(dir, [
    { command: 'git', args: ['status', '--porcelain=v2', '-z'] },
    { command: node, args: [bin, 'verify'] },
  ]);
  const ratio = verify / status;
  const rss = peakRssMb(dir, ['verify']);
  console.log(
    `\n${size} files\n  git status --porcelain=v2 -z   ${fmt(status)}\n  agent-state verify             ${fmt(verify)}\n  ratio verify / git status      ${ratio.toFixed(2)}${size >= 100000 ? `  (target ≤ 1.5: ${verdict(ratio <= 1.5)})` : ''}\n  peak RSS of verify             ${rss.toFixed(1)} MB${size >= 100000 ? `  (target ≤ 150 MB: ${verdict(rss <= 150)})` : ''}`,
  );
  results.push({ size, status, verify, ratio, rss });

  if (size === sizes[0]) {
    const files = git(dir, 'ls-files', '-z', 'src').split('\0').filter(Boolean);
    const one = [files[0]];
    const [hashAll, doneAll, hashOne, doneOne] = compare(dir, [
      { command: 'git', args: ['hash-object', '--', ...files] },
      { command: node, args: [bin, 'done', 't1', '--files', 'src/**'] },
      { command: 'git', args: ['hash-object', '--', ...one] },
      { command: node, args: [bin, 'done', 't1', '--files', one[0]] },
    ]);
    const endToEnd = doneAll / hashAll;
    const perFile = (doneAll - doneOne) / (hashAll - hashOne);
    console.log(
      `\n  done over ${files.length} files (${size}-file repository)\n  git hash-object (${files.length} files)   ${fmt(hashAll)}\n  agent-state done --files 'src/**'  ${fmt(doneAll)}\n  ratio end to end                   ${endToEnd.toFixed(2)}  (target ≤ 1.5: ${verdict(endToEnd <= 1.5)})\n  git hash-object (1 file)            ${fmt(hashOne)}\n  agent-state done (1 file)           ${fmt(doneOne)}\n  ratio per file ((1000 − 1) costs)   ${perFile.toFixed(2)}  (${verdict(perFile <= 1.5)})`,
    );
  }
}
