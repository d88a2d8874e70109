// What a merge pays for the state's merge driver: `agent-state merge-driver %O %A %B %P` (the
// command git runs) against `node -e 0` (the floor of any Node driver) and `git merge-file` on the
// same three files (git's own line merge, which conflicts on them), interleaved. The files: a
// shared progress.yaml of 100 items and 40 markers, each side adding 50 items and 10 markers.
// Also the merge alone, in process (parse three YAML files, merge, render).
// Usage: node bench/merge-driver.mjs [runs]   (npm run build first)
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { BIN, ROOT, interleave, median, report, timeOnce } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 21);

const item = (id, status = 'pending') => ({
  id,
  title: `Implement part ${id} of the feature`,
  status,
});
const marker = (i) => ({
  at: new Date(Date.UTC(2026, 10, 30, 10, i)).toISOString(),
  files: { [`src/part${i}.ts`]: `sha256:${String(i).padStart(64, '0')}` },
  commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
});
function progress(extra, revision) {
  const plan = Array.from({ length: 100 }, (_, i) =>
    item(`t${i + 1}`, i < 40 ? 'done' : 'pending'),
  );
  const markers = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`t${i + 1}`, marker(i)]),
  );
  for (const [agent, offset] of extra) {
    for (let i = 1; i <= 50; i++) plan.push(item(`${agent}-t${i}`, i <= 10 ? 'done' : 'pending'));
    for (let i = 1; i <= 10; i++) markers[`${agent}-t${i}`] = marker(offset + i);
  }
  const head =
    '# yaml-language-server: $schema=https://unpkg.com/agent-state/schemas/progress.schema.json\n';
  return (
    head +
    stringify({ version: 1, revision, stage: 'implementing', next_action: '', plan, markers })
  );
}

const dir = mkdtempSync(join(tmpdir(), 'agent-state-bench-merge-'));
const base = join(dir, 'base.yaml');
const ours = join(dir, 'ours.yaml');
const theirs = join(dir, 'theirs.yaml');
const scratch = join(dir, 'scratch.yaml');
writeFileSync(base, progress([], 40));
writeFileSync(ours, progress([['alice', 100]], 61));
writeFileSync(theirs, progress([['bob', 200]], 62));

// The driver overwrites %A: each run gets a fresh copy, made outside the timed span.
const driver = () => {
  copyFileSync(ours, scratch);
  return timeOnce({
    cmd: process.execPath,
    args: [BIN, 'merge-driver', base, scratch, theirs, '.agent/state/progress.yaml'],
    cwd: dir,
  });
};
const gitMergeFile = {
  cmd: 'git',
  args: ['merge-file', '-p', ours, base, theirs],
  cwd: dir,
  okCodes: Array.from({ length: 128 }, (_, i) => i), // exit status = number of conflicts
};
const medians = interleave(
  { node: { cmd: process.execPath, args: ['-e', '0'], cwd: dir }, gitMergeFile, driver },
  { runs: RUNS, warmup: 3 },
);

const { mergeYamlText } = await import(join(ROOT, 'dist', 'merge', 'merge-yaml.js'));
const { readFileSync } = await import('node:fs');
const texts = [base, ours, theirs].map((f) => readFileSync(f, 'utf8'));
const inProcess = [];
for (let i = 0; i < RUNS + 3; i++) {
  const start = performance.now();
  const merged = mergeYamlText(...texts);
  if (merged.conflicts.length) throw new Error('the bench inputs must merge cleanly');
  if (i >= 3) inProcess.push(performance.now() - start);
}

console.log(
  `agent-state merge-driver on progress.yaml (100 items + 50 per side, 40 + 10 per side markers; ${RUNS} interleaved runs, medians)`,
);
report('merge-driver vs node -e 0', medians.driver, medians.node);
report('merge-driver vs git merge-file', medians.driver, medians.gitMergeFile);
console.log(`the merge alone, in process: ${median(inProcess).toFixed(1)} ms`);
rmSync(dir, { recursive: true, force: true });
