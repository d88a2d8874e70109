// Fingerprint benchmarks (issue 3). Generates git repositories of small files under .bench/
// (git-ignored, reused between runs) and compares, with interleaved runs and ratios of medians:
//   - `agent-state verify` / `git status --porcelain=v2 -z` on the same repository
//     (target ≤ 1.5 on 100k files);
//   - `agent-state done t1 --files 'src/**'` over 1,000 files / one `git hash-object` of the same
//     files (target ≤ 1.5), end to end, and per file (the cost of 1,000 files minus that of 1);
//   - the peak RSS of `verify` on 100k files (target ≤ 150 MB).
// For context it also prints `node -e 0` (the floor of any Node CLI) and the library's hashing
// of the same 1,000 files in-process, next to `git hash-object`.
// Usage: node bench/fingerprint.mjs [--sizes 20000,100000] [--runs 15]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, ROOT, interleave, report } from './lib.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = flag('--sizes', '20000,100000').split(',').map(Number);
const runs = Number(flag('--runs', '15'));
const SRC_FILES = 1000;
const PER_DIR = 100;
const probe = pathToFileURL(join(ROOT, 'bench', 'rss-probe.mjs')).href;
const env = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  NO_COLOR: '1',
};
const run = (cwd, cmd, cmdArgs) =>
  execFileSync(cmd, cmdArgs, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
const cli = (cwd, cliArgs) => run(cwd, process.execPath, [BIN, ...cliArgs]);

// `count` small files, 100 a directory: src/ holds 1,000 (for `done`), lib/ the rest. The state
// is a realistic one: a marker over 11 files, then a checkpoint; after it, 5 tracked files are
// modified and 5 added, so both sides have something to report.
const READY = '.bench-ready-2';
function makeRepo(count) {
  const dir = join(ROOT, '.bench', `repo-${count}`);
  if (existsSync(join(dir, READY))) return dir;
  rmSync(dir, { recursive: true, force: true });
  console.log(`generating ${count} files in ${dir} ...`);
  for (let i = 0; i < count; i++) {
    const sub = join(dir, i < SRC_FILES ? 'src' : 'lib', `d${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), `file ${i}\n${'x'.repeat(i % 200)}\n`);
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench" }\n');
  run(dir, 'git', ['init', '-q', '-b', 'main']);
  run(dir, 'git', ['add', '-A']);
  run(dir, 'git', ['commit', '-q', '-m', 'initial']);
  cli(dir, ['init', '--goal', 'Benchmark the fingerprint']);
  cli(dir, ['plan', 'add', 'Produce the sources']);
  cli(dir, ['plan', 'add', 'Produce one file']);
  cli(dir, ['plan', 'add', 'Write the core module']);
  cli(dir, ['done', 't3', '--files', 'src/d0/f1*.txt']);
  cli(dir, ['checkpoint', '--no-test', '-m', 'baseline']);
  for (let i = 0; i < 5; i++)
    writeFileSync(join(dir, 'lib', 'd10', `f${1000 + i}.txt`), `changed ${i}\n`);
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `new-${i}.txt`), `new ${i}\n`);
  run(dir, 'git', ['status', '--porcelain=v2', '-z']); // refresh the index once, as a user's git would
  writeFileSync(join(dir, READY), '');
  return dir;
}

// Peak RSS of the agent-state process (the worst of 3 runs), read by a preloaded module at exit.
function peakRssMb(cwd, cliArgs) {
  const file = join(ROOT, '.bench', `rss-${process.pid}.txt`);
  let peak = 0;
  for (let i = 0; i < 3; i++) {
    spawnSync(process.execPath, ['--import', probe, BIN, ...cliArgs], {
      cwd,
      env: { ...process.env, ...env, AGENT_STATE_RSS_FILE: file },
    });
    peak = Math.max(peak, Number(readFileSync(file, 'utf8')) / 1024);
  }
  rmSync(file, { force: true });
  return peak;
}

// The library's resolve-and-hash of the same files, called in this process (no start-up), against
// git hash-object spawned with all of them: what `done` costs beyond starting Node and writing YAML.
async function hashingInProcess(cwd, files) {
  const { hashMatchedFiles } = await import(
    pathToFileURL(join(ROOT, 'dist', 'markers', 'mark-done.js')).href
  );
  return interleave(
    {
      library: () => {
        const start = process.hrtime.bigint();
        hashMatchedFiles(cwd, cwd, ['src/**'], true);
        return Number(process.hrtime.bigint() - start) / 1e6;
      },
      git: { cmd: 'git', args: ['hash-object', '--', ...files], cwd },
    },
    { runs, warmup: 2 },
  );
}

const node = process.execPath;
for (const size of sizes) {
  const cwd = makeRepo(size);
  const target = size >= 100_000 ? 1.5 : undefined;
  console.log(`\n${size} files (${runs} interleaved runs, medians)`);
  const m = interleave(
    {
      status: { cmd: 'git', args: ['status', '--porcelain=v2', '-z'], cwd },
      verify: { cmd: node, args: [BIN, 'verify'], cwd, okCodes: [0, 1], env },
      node: { cmd: node, args: ['-e', '0'], cwd },
    },
    { runs, warmup: 2 },
  );
  report('verify / git status --porcelain=v2 -z', m.verify, m.status, target);
  report('  context: (verify − node -e 0) / git status', m.verify - m.node, m.status);
  const rss = peakRssMb(cwd, ['verify']);
  const rssTarget = size >= 100_000 ? ` (target ≤ 150 MB) ${rss <= 150 ? 'PASS' : 'FAIL'}` : '';
  console.log(`peak RSS of verify: ${rss.toFixed(1)} MB${rssTarget}`);

  if (size !== sizes[0]) continue;
  const files = run(cwd, 'git', ['ls-files', '-z', 'src']).split('\0').filter(Boolean);
  const d = interleave(
    {
      hashAll: { cmd: 'git', args: ['hash-object', '--', ...files], cwd },
      doneAll: { cmd: node, args: [BIN, 'done', 't1', '--files', 'src/**'], cwd, env },
      hashOne: { cmd: 'git', args: ['hash-object', '--', files[0]], cwd },
      doneOne: { cmd: node, args: [BIN, 'done', 't2', '--files', files[0]], cwd, env },
    },
    { runs, warmup: 2 },
  );
  // Leave the state as it was: the 1,000-file marker would weigh on every later command.
  cli(cwd, ['undone', 't1', '-q']);
  cli(cwd, ['undone', 't2', '-q']);
  console.log(`\ndone over ${files.length} files in the ${size}-file repository`);
  report(
    `done --files 'src/**' / git hash-object (${files.length} files), end to end`,
    d.doneAll,
    d.hashAll,
    1.5,
  );
  report(
    'per file: (done 1000 − done 1) / (hash-object 1000 − hash-object 1)',
    d.doneAll - d.doneOne,
    d.hashAll - d.hashOne,
    1.5,
  );
  report('  context: node -e 0 / git hash-object (1000 files)', m.node, d.hashAll);
  const hashing = await hashingInProcess(cwd, files);
  report(
    '  context: library resolve + hash, in-process / git hash-object',
    hashing.library,
    hashing.git,
  );
}
