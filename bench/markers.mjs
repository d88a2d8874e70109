// A completion marker over 5,000 files (issue 14, item 6): with nothing changed, `check` and
// `boot --level 2 --fast` should cost about what `node -e 0` plus one `git status` cost (the
// files are stat'ed, not read: .agent/log/hashes.json keeps each hash with its size, mtime, ctime
// and inode). The same commands with the cache removed before each run are timed as the baseline
// they replace. Then one file is changed and must be found.
// Usage: node bench/markers.mjs [--runs N] [--files N] [--cpu]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, interleave, report, timeOnce } from './lib.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const runs = Number(arg('--runs')) || 11;
const count = Number(arg('--files')) || 5000;
const cpu = process.argv.includes('--cpu');

const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-markers-'));
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
    cwd: repo,
  });
git('init', '-q', '-b', 'main');
const old = new Date(Date.now() - 3600_000);
for (let i = 0; i < count; i++) {
  const dir = join(repo, 'src', `m${i % 50}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `f${i}.ts`);
  // A few KB each, like source files.
  writeFileSync(file, `export const v${i} = ${JSON.stringify('x'.repeat(2000 + (i % 3000)))};\n`);
  utimesSync(file, old, old);
}
git('add', '-A');
git('commit', '-q', '-m', 'initial');
const cli = (...args) => execFileSync(process.execPath, [BIN, ...args], { cwd: repo });
cli('init', '-q', '--goal', 'Keep the marked work valid');
writeFileSync(join(repo, '.agent/config.yaml'), 'version: 1\nboot:\n  stall_threshold: 1000000\n');
cli('plan', 'add', 'Everything in src', '--id', 't1');
cli('done', 't1', '--files', 'src/**');
git('add', '-A');
git('commit', '-q', '-m', 'marked');
const cache = join(repo, '.agent', 'log', 'hashes.json');

const node = (args) => ({
  cmd: process.execPath,
  args: [BIN, ...args],
  cwd: repo,
  okCodes: [0, 1],
});
const uncached = (args) => () => {
  rmSync(cache, { force: true });
  return timeOnce({ ...node(args), cpu });
};
const t = interleave(
  {
    nodeE0: { cmd: process.execPath, args: ['-e', '0'] },
    gitStatus: { cmd: 'git', args: ['status', '--porcelain'], cwd: repo },
    check: node(['check', 't1']),
    boot: node(['boot', '--level', '2', '--fast', '--dry-run']),
    checkUncached: uncached(['check', 't1']),
    bootUncached: uncached(['boot', '--level', '2', '--fast', '--dry-run']),
  },
  { runs, cpu },
);
console.log(`${count} files in one marker, ${runs} interleaved runs${cpu ? ' (CPU time)' : ''}:`);
const floor = t.nodeE0 + t.gitStatus;
console.log(
  `node -e 0 ${t.nodeE0.toFixed(1)} ms + git status ${t.gitStatus.toFixed(1)} ms = ${floor.toFixed(1)} ms`,
);
report('check, nothing changed / (node -e 0 + git status)', t.check, floor, 1.5);
report('boot --level 2 --fast, nothing changed / (node -e 0 + git status)', t.boot, floor, 1.5);
report('check without the hash cache / with it', t.checkUncached, t.check);
report('boot without the hash cache / with it', t.bootUncached, t.boot);

// One file changed (same size, new content): found, by check and by boot.
const k = Math.floor(count / 2) + 7;
const rel = `src/m${k % 50}/f${k}.ts`;
writeFileSync(
  join(repo, rel),
  `export const v${k} = ${JSON.stringify('y'.repeat(2000 + (k % 3000)))};\n`,
);
const checked = spawnSync(process.execPath, [BIN, 'check', 't1', '--json'], {
  cwd: repo,
  encoding: 'utf8',
});
const booted = spawnSync(process.execPath, [BIN, 'boot', '--level', '2', '--fast', '--dry-run'], {
  cwd: repo,
  encoding: 'utf8',
});
const foundByCheck = checked.status === 1 && checked.stdout.includes(rel);
const foundByBoot = booted.stdout.includes(rel);
console.log(
  `one file changed: check ${foundByCheck ? 'finds it' : 'MISSES it'} (exit ${checked.status}), boot ${foundByBoot ? 'names it' : 'MISSES it'}`,
);
if (process.argv.includes('--keep')) console.log(`kept ${repo}`);
else rmSync(repo, { recursive: true, force: true });
if (!foundByCheck || !foundByBoot) process.exitCode = 1;
