// A completion marker over 50,000 files (issue 20, item 2): progress.yaml stays small (the file
// list lives in .agent/state/markers/), and with nothing changed the whole-state commands —
// status, boot, verify, check — cost about what `node -e 0` plus one `git status` cost on the
// same tree (git vouches for the marker's tracked files; none is read). Then one file is edited:
// `check` must name it, and costs what reading the list costs.
// Usage: node bench/big-marker.mjs [--runs N] [--files N]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, interleave, report } from './lib.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const runs = Number(arg('--runs')) || 11;
const count = Number(arg('--files')) || 50_000;

const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-big-marker-'));
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
    cwd: repo,
    maxBuffer: 1 << 30,
  });
git('init', '-q', '-b', 'main');
git('config', 'gc.auto', '0');
for (let d = 0; d < 200; d++) mkdirSync(join(repo, 'src', `d${d}`), { recursive: true });
for (let i = 0; i < count; i++)
  writeFileSync(join(repo, 'src', `d${i % 200}`, `f${i}.ts`), `export const v${i} = ${i};\n`);
git('add', '-A');
git('commit', '-q', '-m', 'initial');
const cli = (...args) => execFileSync(process.execPath, [BIN, ...args], { cwd: repo });
cli('init', '-q', '--goal', 'Everything in src stays done');
writeFileSync(join(repo, '.agent/config.yaml'), 'version: 1\nboot:\n  stall_threshold: 1000000\n');
cli('plan', 'add', 'Everything in src', '--id', 't1');
cli('done', 't1', '--files', 'src/**');
git('add', '-A');
git('commit', '-q', '-m', 'done t1');
const bytes = statSync(join(repo, '.agent/state/progress.yaml')).size;

const node = (args) => ({
  cmd: process.execPath,
  args: [BIN, ...args],
  cwd: repo,
  okCodes: [0, 1],
});
const commands = {
  status: ['status'],
  boot: ['boot', '--dry-run'],
  bootFast: ['boot', '--fast', '--dry-run'],
  verify: ['verify'],
  check: ['check', 't1'],
};
const t = interleave(
  {
    nodeE0: { cmd: process.execPath, args: ['-e', '0'] },
    gitStatus: { cmd: 'git', args: ['status', '--porcelain'], cwd: repo },
    ...Object.fromEntries(Object.entries(commands).map(([k, args]) => [k, node(args)])),
  },
  { runs },
);
console.log(
  `${count} files in one marker; progress.yaml ${bytes} bytes; ${runs} interleaved runs:`,
);
const floor = t.nodeE0 + t.gitStatus;
console.log(
  `node -e 0 ${t.nodeE0.toFixed(1)} ms + git status ${t.gitStatus.toFixed(1)} ms = ${floor.toFixed(1)} ms`,
);
let failed = bytes >= 64 * 1024;
for (const [name, args] of Object.entries(commands))
  failed ||=
    report(`${args.join(' ')}, nothing changed / (node -e 0 + git status)`, t[name], floor, 1.5) >
    1.5;

// One file edited (same size, new content): check names it.
const rel = `src/d42/f${42 + 200 * 100}.ts`;
writeFileSync(join(repo, rel), `export const v${42 + 200 * 100} = -1;\n`);
const edited = interleave({ check: node(['check', 't1']) }, { runs: Math.max(3, runs >> 1) });
report('check t1 after one edit / (node -e 0 + git status)', edited.check, floor);
const checked = spawnSync(process.execPath, [BIN, 'check', 't1'], { cwd: repo, encoding: 'utf8' });
const found = checked.status === 1 && checked.stdout.includes(`${rel} changed`);
console.log(`one file edited: check ${found ? 'names it' : 'MISSES it'} (exit ${checked.status})`);
if (process.argv.includes('--keep')) console.log(`kept ${repo}`);
else rmSync(repo, { recursive: true, force: true });
if (failed || !found) process.exitCode = 1;
