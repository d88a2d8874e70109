// Shared benchmark helpers: interleaved runs of commands, medians, ratios. Interleaving (A, B,
// A, B, ...) exposes both sides to the same machine load, so the ratio is stable even when the
// absolute times are not.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'agent-state.js');

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const CPU_PROBE = join(ROOT, 'bench', 'cpu-probe.cjs');
let cpuDir;

/**
 * Runs a command once; returns wall milliseconds, or with `cpu` the CPU milliseconds of the
 * (node) process itself, measured by bench/cpu-probe.cjs. Throws on an unexpected exit code.
 */
export function timeOnce({ cmd, args, cwd, input, okCodes = [0], env, cpu = false }) {
  cpuDir ??= cpu ? mkdtempSync(join(tmpdir(), 'agent-state-bench-cpu-')) : undefined;
  const cpuFile = cpu ? join(cpuDir, 'cpu') : undefined;
  const probe = cpu
    ? { NODE_OPTIONS: `--require ${CPU_PROBE}`, AGENT_STATE_CPU_FILE: cpuFile }
    : {};
  const start = process.hrtime.bigint();
  const result = spawnSync(cmd, args, {
    cwd,
    input,
    env: { ...process.env, ...env, ...probe },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okCodes.includes(result.status)) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  if (!cpu) return ms;
  const micros = Number(readFileSync(cpuFile, 'utf8'));
  rmSync(cpuFile);
  return micros / 1000;
}

/** Interleaves `runs` rounds of every case (after `warmup` rounds); returns medians by name. */
export function interleave(cases, { runs = 21, warmup = 3, cpu = false } = {}) {
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (const [name, spec] of Object.entries(cases)) {
      const ms = typeof spec === 'function' ? spec() : timeOnce({ cpu, ...spec });
      if (round >= warmup) times[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Prints one result line: `label: a / b = ratio (target ≤ t) PASS|FAIL`. */
export function report(label, numerator, denominator, target) {
  const ratio = numerator / denominator;
  const verdict = target === undefined ? '' : ratio <= target ? ' PASS' : ' FAIL';
  console.log(
    `${label}: ${numerator.toFixed(1)} ms / ${denominator.toFixed(1)} ms = ${ratio.toFixed(2)}${target === undefined ? '' : ` (target ≤ ${target})`}${verdict}`,
  );
  return ratio;
}

const TOOLS = ['grep', 'read', 'edit', 'bash', 'glob', 'write'];

// A realistic mix: tool calls (started + finished, some failing, some searches finding nothing),
// cwd changes, file edits, test runs and checkpoints; written straight to the log (the appender
// would take hours for a million events, and this measures reading, not writing).
export function writeEvents(dir, count, firstSeq = 3) {
  const log = join(dir, '.agent', 'log', 'events.jsonl');
  mkdirSync(join(dir, '.agent', 'log'), { recursive: true });
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  let lines = [];
  for (let seq = firstSeq; seq < count + firstSeq; seq++) {
    const at = new Date(t0 + seq * 1000).toISOString();
    const tool = TOOLS[seq % TOOLS.length];
    const k = seq % 20;
    let e;
    if (k < 8) e = { type: 'tool.started', actor: 'tool', name: tool, id: `c${seq}` };
    else if (k < 16)
      e = {
        type: 'tool.finished',
        actor: 'tool',
        name: tool,
        ok: seq % 7 !== 0,
        new_results: seq % 3,
        causation_id: `c${seq - 8}`,
      };
    else if (k === 16)
      e = { type: 'file.modified', actor: 'tool', path: `src/module-${seq % 50}.ts` };
    else if (k === 17)
      e = { type: 'cwd.changed', actor: 'agent', cwd: `/repo/services/s${seq % 5}` };
    else if (k === 18)
      e = {
        type: 'verification.finished',
        actor: 'tool',
        passed: seq % 400,
        failed: seq % 3,
        artifact: '.agent/artifacts/test.log',
      };
    else
      e =
        seq % 500 === 19
          ? { type: 'checkpoint.created', actor: 'system' }
          : { type: 'usage', actor: 'agent', tokens: 1200 };
    lines.push(JSON.stringify({ seq, at, ...e }));
    if (lines.length === 20_000) {
      appendFileSync(log, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length) appendFileSync(log, `${lines.join('\n')}\n`);
  return log;
}
