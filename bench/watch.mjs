// `agent-state watch` on a 100k-file repository: time to ready, peak RSS, and how long an edit
// to a Forbidden file takes to be reported. Targets: ready ≤ 1 s, peak RSS ≤ 100 MB, report ≤ 1 s.
// The baseline in the same run is a bare `node -e 0` (start-up time and RSS of Node itself).
// Usage: node bench/watch.mjs [rounds]   (npm run build first; Linux: reads /proc for the RSS)
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bigRepo } from './fixtures/hooks-100k.mjs';
import { BIN, median } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const EDITS = 5;

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

function nodeBaseline() {
  const start = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, '-e', '0'], {
    encoding: 'utf8',
  });
  return {
    ms: performance.now() - start,
    rssMb: Number(result.stderr.trim().split('\n').pop()) / 1024,
  };
}

// One watch session: spawn, wait for ready, edit Forbidden files one by one, read the peak RSS.
function session(repo) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, 'watch', '--json'], { cwd: repo });
    let buffer = '';
    let readyMs = 0;
    let internalMs = 0;
    const latencies = [];
    let editAt = 0;
    let edits = 0;
    const edit = () => {
      editAt = performance.now();
      appendFileSync(join(repo, 'src', 'storage', `s${edits}.js`), `// edit ${Date.now()}\n`);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (line.type === 'ready') {
          readyMs = performance.now() - start;
          internalMs = line.ms;
          setTimeout(edit, 100);
        } else if (line.type === 'change' && line.kind === 'forbidden') {
          latencies.push(performance.now() - editAt);
          edits++;
          if (edits < EDITS) setTimeout(edit, 150);
          else {
            const rssMb = peakRssMb(child.pid);
            child.kill('SIGINT');
            resolve({ readyMs, internalMs, latencies, rssMb });
          }
        }
      }
    });
    child.on('error', reject);
    setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error('watch did not report in time'))),
      30_000,
    );
  });
}

const repo = bigRepo();
spawnSync('git', ['checkout', '-q', '--', 'src/storage'], { cwd: repo });
const results = [];
const baselines = [];
for (let i = 0; i < ROUNDS; i++) {
  baselines.push(nodeBaseline());
  results.push(await session(repo));
}
spawnSync('git', ['checkout', '-q', '--', 'src/storage'], { cwd: repo });

const ready = median(results.map((r) => r.readyMs));
const internal = median(results.map((r) => r.internalMs));
const rss = Math.max(...results.map((r) => r.rssMb));
const latencies = results.flatMap((r) => r.latencies);
const nodeMs = median(baselines.map((b) => b.ms));
const nodeRss = median(baselines.map((b) => b.rssMb));
const ok = (value, target) => (value <= target ? 'met' : 'NOT MET');
console.log(`agent-state watch on a 100k-file repository (${ROUNDS} sessions × ${EDITS} edits)`);
console.log(
  `ready (spawn → ready line)  median ${ready.toFixed(0)} ms (watcher alone ${internal} ms; node -e 0 ${nodeMs.toFixed(0)} ms, ratio ${(ready / nodeMs).toFixed(1)})  target ≤ 1000 ms: ${ok(ready, 1000)}`,
);
console.log(
  `peak RSS                    max ${rss.toFixed(0)} MB (node -e 0 ${nodeRss.toFixed(0)} MB)  target ≤ 100 MB: ${ok(rss, 100)}`,
);
console.log(
  `edit → report latency       median ${median(latencies).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms  target ≤ 1000 ms: ${ok(Math.max(...latencies), 1000)}`,
);
process.exitCode = ready <= 1000 && rss <= 100 && Math.max(...latencies) <= 1000 ? 0 : 1;
