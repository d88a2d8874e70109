// `agent-state ui` and `report --html` on a 1,000,000-event log, against the same on a 1,000-event
// log in the same run (interleaved, medians):
//   1. time to first render: from spawning `ui` to the whole page received over HTTP (node's
//      start-up included), target < 1 s at 1M events, and the ratio 1M / 1k;
//   2. the same page in headless Chromium (navigation to first contentful paint), when
//      /usr/bin/chromium and playwright-core are there;
//   3. peak RSS of the server after the page and a timeline filter that scans the whole log
//      (a type that is not in it), target < 150 MB;
//   4. `report --html` time and peak RSS.
// Usage: node bench/ui.mjs [--runs N] [--events N]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, median, timeOnce, writeEvents } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('--runs', 7);
const bigCount = arg('--events', 1_000_000);
const SMALL = 1_000;
const PROBE = join(ROOT, 'bench', 'rss-probe.mjs');
const dirs = [];
let failed = false;

function repo(name, count) {
  const dir = mkdtempSync(join(tmpdir(), `agent-state-bench-ui-${name}-`));
  dirs.push(dir);
  const cli = (...args) => execFileSync(process.execPath, [BIN, ...args, '-q'], { cwd: dir });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  cli('init', '--goal', 'Benchmark the page of the Task Context');
  cli('plan', 'add', 'Measure the first render');
  cli('plan', 'start', 't1');
  cli('next', 'Open the page', '--stage', 'bench');
  // One boot before the million events: finding "the last boot" then reads the whole log back
  // (the worst case; a log without a boot is not scanned at all).
  cli('boot', '--fast');
  const last = JSON.parse(
    execFileSync(process.execPath, [BIN, 'events', '--limit', '1', '--json'], { cwd: dir }),
  ).events[0].seq;
  const log = writeEvents(dir, count, last + 1);
  // The status cache, as every `status`, status line and hook keeps it.
  timeOnce({ cmd: process.execPath, args: [BIN, 'status'], cwd: dir });
  return { dir, log };
}

// Starts `ui --json` and resolves with the child and the URL it printed.
function startUi(dir, env = {}) {
  const child = spawn(process.execPath, ['--import', PROBE, BIN, 'ui', '--json'], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      child.stdout.removeAllListeners('data');
      resolve({ child, url: JSON.parse(out.split('\n')[0]).url });
    });
    child.once('error', reject);
  });
}

// CPU time (user + system, ms) a process has used so far; Linux only (null elsewhere). The
// machine may be shared: CPU time does not grow with other processes' load, wall time does.
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return null;
  }
}

// Milliseconds from spawning `ui` to the whole page; with `filter`, also a timeline request for
// a type the log does not hold (a scan of the whole log); the server's peak RSS (KiB).
async function firstRender(dir, { filter = false } = {}) {
  const rssFile = join(dir, '.rss');
  rmSync(rssFile, { force: true });
  const start = process.hrtime.bigint();
  const { child, url } = await startUi(dir, { AGENT_STATE_RSS_FILE: rssFile });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const page = await (await fetch(url)).text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const cpuMs = cpuOf(child.pid);
    if (!page.includes('Benchmark the page')) throw new Error('the page lacks the goal');
    let filterMs = null;
    if (filter) {
      const base = new URL(url);
      const t = process.hrtime.bigint();
      await (await fetch(`${base.origin}/api/timeline${base.search}&types=not.in.the.log`)).json();
      filterMs = Number(process.hrtime.bigint() - t) / 1e6;
    }
    child.kill('SIGTERM');
    await exited;
    return { ms, cpuMs, filterMs, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

// Navigation to first contentful paint in Chromium (null without a browser).
async function browserRender(url) {
  if (!existsSync('/usr/bin/chromium')) return null;
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return null;
  }
  const profile = mkdtempSync(join(tmpdir(), 'agent-state-bench-chromium-'));
  dirs.push(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const page = await context.newPage();
    await page.goto(url);
    // The paint entry may come after `load`: wait for it (buffered), at most 10 s.
    return await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const entry = list.getEntriesByName('first-contentful-paint')[0];
            if (entry) resolve(entry.startTime);
          }).observe({ type: 'paint', buffered: true });
          setTimeout(() => resolve(-1), 10_000);
        }),
    );
  } finally {
    await context.close();
  }
}

function reportRun(dir) {
  const rssFile = join(dir, '.rss');
  const ms = timeOnce({
    cmd: process.execPath,
    args: ['--import', PROBE, BIN, 'report', '--html', join(dir, 'report.html')],
    cwd: dir,
    env: { AGENT_STATE_RSS_FILE: rssFile },
  });
  return { ms, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
}

const mb = (kib) => (kib / 1024).toFixed(0);
const TARGET_KIB = 150 * 1024;

try {
  console.log(`agent-state ui (${runs} interleaved runs, medians)`);
  const small = repo('small', SMALL);
  const big = repo('big', bigCount);
  console.log(
    `logs: ${SMALL} events; ${bigCount} events, ${(statSync(big.log).size / 2 ** 20).toFixed(0)} MiB (status cache current)`,
  );
  const t = {
    big: [],
    small: [],
    cpuBig: [],
    cpuSmall: [],
    status: [],
    rss: [],
    filter: [],
    repBig: [],
    repSmall: [],
    repRss: [],
  };
  const status = { cmd: process.execPath, args: [BIN, 'status'], cwd: big.dir };
  await firstRender(small.dir); // warm the page cache
  await firstRender(big.dir);
  for (let i = 0; i < runs; i++) {
    const b = await firstRender(big.dir, { filter: true });
    const s = await firstRender(small.dir);
    t.status.push(timeOnce(status));
    t.big.push(b.ms);
    t.small.push(s.ms);
    t.cpuBig.push(b.cpuMs);
    t.cpuSmall.push(s.cpuMs);
    t.rss.push(b.rssKiB);
    t.filter.push(b.filterMs);
    const rb = reportRun(big.dir);
    const rs = reportRun(small.dir);
    t.repBig.push(rb.ms);
    t.repSmall.push(rs.ms);
    t.repRss.push(rb.rssKiB);
  }
  const bigMs = median(t.big);
  const smallMs = median(t.small);
  const peak = Math.max(...t.rss);
  const reportPeak = Math.max(...t.repRss);
  console.log(
    `first render (spawn → whole page over HTTP), ${bigCount} events: ${bigMs.toFixed(0)} ms (target < 1000 ms) ${bigMs < 1000 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  ${SMALL} events: ${smallMs.toFixed(0)} ms; ratio ${bigCount} / ${SMALL} events = ${(bigMs / smallMs).toFixed(2)}`,
  );
  if (t.cpuBig[0] !== null)
    console.log(
      `  CPU time of the server until then: ${median(t.cpuBig).toFixed(0)} ms at ${bigCount} events, ${median(t.cpuSmall).toFixed(0)} ms at ${SMALL}`,
    );
  console.log(
    `  / \`agent-state status\` on the same ${bigCount}-event log (baseline, interleaved): ${median(t.status).toFixed(0)} ms = ${(bigMs / median(t.status)).toFixed(2)}`,
  );
  console.log(
    `  a timeline filter scanning all ${bigCount} events (a type not in the log): ${median(t.filter).toFixed(0)} ms`,
  );
  console.log(
    `peak RSS of the server (page + that filter), ${bigCount} events: ${mb(peak)} MB (target < 150 MB) ${peak < TARGET_KIB ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `report --html: ${bigCount} events ${median(t.repBig).toFixed(0)} ms / ${SMALL} events ${median(t.repSmall).toFixed(0)} ms; peak RSS ${mb(reportPeak)} MB (target < 150 MB) ${reportPeak < TARGET_KIB ? 'PASS' : 'FAIL'}`,
  );
  failed ||= bigMs >= 1000 || peak >= TARGET_KIB || reportPeak >= TARGET_KIB;

  // A server of its own for the browser: its URL is valid while it runs.
  const { child, url } = await startUi(big.dir);
  const fcp = [];
  for (let i = 0; i < 3; i++) fcp.push(await browserRender(url));
  child.kill('SIGTERM');
  if (fcp[0] === null)
    console.log('Chromium: not measured (no /usr/bin/chromium or playwright-core)');
  else
    console.log(
      `Chromium, ${bigCount} events: navigation → first contentful paint ${median(fcp).toFixed(0)} ms (a new browser each time)`,
    );
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
