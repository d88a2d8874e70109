// The event log and the status bar, measured against baselines in the same run:
//   1. `status` on a 1,000,000-event log with a warm snapshot cache / `status` on a 1,000-event
//      log (target ≤ 1.3: the cache makes status cost O(new events), not O(log));
//   2. a cold reduce of 1,000,000 events: `status` with no cache, in seconds (target ≤ 5 s), and
//      the library alone (read + parse + reduce) for reference;
//   3. `event` (one append) / `node -e 0` (target ≤ 1.5: hooks run it after every tool call).
// Interleaved runs, medians.  Usage: node bench/events.mjs [--runs N] [--events N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, ROOT, interleave, median, report, timeOnce, writeEvents } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('--runs', 21);
const bigCount = arg('--events', 1_000_000);
const SMALL = 1_000;
const dirs = [];
let failed = false;

function repo(name) {
  const dir = mkdtempSync(join(tmpdir(), `agent-state-bench-${name}-`));
  dirs.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync(process.execPath, [BIN, 'init', '-q', '--goal', 'Benchmark the event log'], {
    cwd: dir,
  });
  execFileSync(process.execPath, [BIN, 'next', 'Measure', '--stage', 'bench', '-q'], { cwd: dir });
  return dir;
}

const status = (cwd) => ({ cmd: process.execPath, args: [BIN, 'status'], cwd });
const statusCache = (dir) => join(dir, '.agent', 'log', 'status.json');

try {
  console.log(`agent-state event log (${runs} interleaved runs, medians)`);
  const small = repo('small');
  writeEvents(small, SMALL);
  const big = repo('big');
  const bigLog = writeEvents(big, bigCount);
  console.log(
    `logs: ${SMALL} events; ${bigCount} events, ${(statSync(bigLog).size / 2 ** 20).toFixed(0)} MiB`,
  );

  // 2. Cold: no cache, the whole log read, parsed and reduced (three runs, median).
  const cold = [];
  for (let i = 0; i < 3; i++) {
    rmSync(statusCache(big), { force: true });
    cold.push(timeOnce(status(big)));
  }
  const coldS = median(cold) / 1000;
  console.log(
    `cold reduce of ${bigCount} events (\`status\`, no cache): ${coldS.toFixed(2)} s (target ≤ 5 s) ${coldS <= 5 ? 'PASS' : 'FAIL'}`,
  );
  failed ||= coldS > 5;
  const lib = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href);
  const events = await import(pathToFileURL(join(ROOT, 'dist', 'api', 'events.js')).href);
  const paths = lib.statePaths(big);
  rmSync(statusCache(big), { force: true });
  const start = process.hrtime.bigint();
  const loaded = events.loadStatus(paths);
  const libS = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(
    `  library loadStatus() alone: ${libS.toFixed(2)} s for ${loaded.folded} events (${(loaded.folded / libS / 1e6).toFixed(2)} M events/s)`,
  );

  // 1. Warm: both caches current; status must not depend on the log's length.
  timeOnce(status(small));
  timeOnce(status(big));
  const warm = interleave({ big: status(big), small: status(small) }, { runs });
  failed ||=
    report(`status, ${bigCount} events (warm cache) / ${SMALL} events`, warm.big, warm.small, 1.3) >
    1.3;

  // 3. One append per call, as a hook does it.
  const appends = repo('append');
  writeEvents(appends, SMALL);
  const append = interleave(
    {
      event: {
        cmd: process.execPath,
        args: [BIN, 'event', 'tool.finished', '--field', 'name=grep', '--field', 'new_results=0'],
        cwd: appends,
      },
      node: { cmd: process.execPath, args: ['-e', '0'], cwd: appends },
    },
    { runs },
  );
  failed ||= report('event append / node -e 0', append.event, append.node, 1.5) > 1.5;
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
