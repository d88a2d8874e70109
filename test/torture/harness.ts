// The torture tier's harness: its size (TORTURE_SCALE) and seed (TORTURE_SEED), the real bin run
// as a child process with a timeout, a small pool to keep both cores busy, the checks every run
// must pass (no exit 70, no stack trace, no control character, no timeout), and the report each
// campaign hands to the summary line (setup.ts).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { CONTROL } from '../helpers/controls.js';
import { BIN, git, gitdir, runCli, testdir } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

/** How much bigger than the CI run: `TORTURE_SCALE=16` is the full run (docs/reliability.md). */
export const SCALE =
  Number(process.env.TORTURE_SCALE ?? '1') > 0 ? Number(process.env.TORTURE_SCALE) || 1 : 1;

/** One seed per run (printed in the summary): `TORTURE_SEED=N` replays a run. */
export const SEED = inject('tortureSeed');

/** `base` at scale 1, times the scale, at most `cap`. */
export function scaled(base: number, cap = Number.POSITIVE_INFINITY): number {
  return Math.min(cap, Math.max(1, Math.round(base * SCALE)));
}

export interface Run {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** No color, nothing that changes what the CLI prints, the lock timeout as users have it. */
export const CLEAN_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  NO_COLOR: '1',
  FORCE_COLOR: undefined,
  AGENT_STATE_DEBUG: undefined,
};

/** Runs the real bin; a run past `timeoutMs` is killed and reported as timed out. */
export function runBin(
  cwd: string,
  args: string[],
  options: { input?: string | Buffer; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...CLEAN_ENV, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ args, code, signal, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => undefined); // a command that does not read stdin
    child.stdin.end(options.input ?? '');
  });
}

/** Runs `tasks` with at most `width` at once; results in task order. */
export async function pool<T, R>(
  items: readonly T[],
  width: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** CLI runs at once (`TORTURE_WIDTH`): two per core, as a run waits on the disk and git part of its time. */
export const WIDTH = Math.max(1, Number(process.env.TORTURE_WIDTH ?? '') || 4);

/** A line of a Node stack trace: `    at fn (file:1:2)` or `    at file:1:2`. */
export const STACK_LINE = /^\s+at (?:.+ \()?(?:node:|file:|\/).+:\d+:\d+\)?$/m;

/** The exit codes docs/cli.md documents (70 is a bug, by definition). */
const DOCUMENTED = new Set([0, 1, 2, 3, 4]);

/** What went wrong, for the report: a kind (counted) and enough to reproduce it. */
export interface Violation {
  kind: string;
  detail: string;
}

/** Clips a text for a violation's detail. */
export function clip(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** The checks every run passes; returns its violations. */
export function checkRun(run: Run, context: string, exits = DOCUMENTED): Violation[] {
  const found: Violation[] = [];
  const what = `${context}: agent-state ${clip(run.args.join(' '), 200)}`;
  const output = `stdout: ${clip(run.stdout)}\nstderr: ${clip(run.stderr)}`;
  if (run.timedOut) found.push({ kind: 'timeout', detail: `${what}\n${output}` });
  else if (run.code === 70) found.push({ kind: 'exit 70', detail: `${what}\n${output}` });
  else if (run.code === null || !exits.has(run.code))
    found.push({
      kind: 'undocumented exit',
      detail: `${what}: exit ${run.code} ${run.signal ?? ''}\n${output}`,
    });
  if (STACK_LINE.test(run.stdout) || STACK_LINE.test(run.stderr))
    found.push({ kind: 'stack trace', detail: `${what}\n${output}` });
  const control = CONTROL.exec(run.stdout) ?? CONTROL.exec(run.stderr);
  if (control)
    found.push({
      kind: 'control character',
      detail: `${what}: U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')} on output\n${output}`,
    });
  // Bad input: one line on stderr with the fix — or, from a checker (verify), its report, which
  // names file:line and the fix on stdout.
  if (run.code === 2 && !run.timedOut) {
    const lines = run.stderr.trimEnd().split('\n');
    const oneLine = lines.length === 1 && /^agent-state: .*\(fix: .+\)$/.test(lines[0]!);
    const report = run.stderr === '' && /:\d+.*\(fix: .+\)/.test(run.stdout);
    if (!oneLine && !report)
      found.push({ kind: 'error not one line with a fix', detail: `${what}\n${output}` });
  }
  return found;
}

/** Every string of a parsed JSON value (keys too). */
export function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...jsonStrings(v)]);
  return [];
}

/** The fake secrets' parts that must never be on disk (one per kind of the redactor). */
export const SECRET_PARTS = Object.entries(SECRETS).map(([kind, text]) =>
  sensitivePart(kind, text),
);

/** The first secret `text` holds, or null. */
export function secretIn(text: string): string | null {
  return SECRET_PARTS.find((part) => text.includes(part)) ?? null;
}

/** The files of `dir` (recursive) with their text; {} when it does not exist. */
export function readTree(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = readFileSync(
        join(entry.parentPath, entry.name),
        'latin1',
      );
  }
  return out;
}

/** The committed state (config, goals, progress, evidence): what a failed command must not touch. */
export function stateSnapshot(repo: string): string {
  const files = {
    ...readTree(join(repo, '.agent', 'state')),
    config: existsSync(join(repo, '.agent/config.yaml'))
      ? readFileSync(join(repo, '.agent/config.yaml'), 'latin1')
      : null,
  };
  return JSON.stringify(files, Object.keys(files).sort());
}

/** A campaign's counts and violations, for the summary line (setup.ts prints it). */
export function report(
  campaign: string,
  counts: Record<string, number>,
  violations: Violation[],
): void {
  const byKind: Record<string, number> = {};
  for (const v of violations) byKind[v.kind] = (byKind[v.kind] ?? 0) + 1;
  writeFileSync(
    join(inject('tortureReportDir'), `${campaign}.json`),
    JSON.stringify({ campaign, counts, byKind, violations: violations.length }),
  );
}

/** A failure message: the count of each kind of violation, and its first example in full. */
export function describeViolations(violations: readonly Violation[]): string {
  const first = new Map<string, { count: number; example: string }>();
  for (const v of violations) {
    const seen = first.get(v.kind);
    if (seen) seen.count++;
    else first.set(v.kind, { count: 1, example: v.detail });
  }
  const kinds = [...first].map(
    ([kind, { count, example }]) => `[${kind}] × ${count}, e.g. ${example}`,
  );
  return `${violations.length} violations (TORTURE_SEED=${SEED}):\n${kinds.join('\n\n')}\n`;
}

/** Fails the test with describeViolations when there is any violation. */
export function expectNoViolations(violations: readonly Violation[]): void {
  if (violations.length > 0) throw new Error(describeViolations(violations));
}

/**
 * A state repository to torture: initialized, with a plan, a done step and its marker, memory, a
 * reminder, evidence and a checkpoint, all committed. Built once per file, copied per slot.
 */
export async function richRepo(): Promise<string> {
  const repo = gitdir({
    'package.json': '{ "name": "torture", "private": true }\n',
    'src/a.js': 'export const a = 1;\n',
    'src/storage/db.js': 'export const db = new Map();\n',
  });
  const steps = [
    ['init', '--goal', 'Survive the torture run', '--test', 'node -e 0'],
    ['plan', 'add', 'Write a', '--id', 't1'],
    ['plan', 'add', 'Write b', '--id', 't2'],
    ['plan', 'add', 'Review', '--id', 't3'],
    ['plan', 'start', 't1'],
    ['done', 't1', '--files', 'src/a.js', '--note', 'a works'],
    ['memory', 'add', 'The storage layer is frozen', '--durable'],
    ['memory', 'add', 'b needs the map'],
    ['remind', 'Ask about the page size'],
    ['evidence', 'add', '--kind', 'note', '--summary', 'Chose the map'],
    ['next', 'Write b', '--stage', 'implementing'],
    ['checkpoint', '--no-test', '-m', 'a works'],
  ];
  for (const args of steps) {
    const result = await runCli(repo, args);
    if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  }
  writeFileSync(
    join(repo, '.agent/state/goals.md'),
    '# Survive the torture run\n\nKeep every file whole whatever is thrown at agent-state.\n\n## Success criteria\n\n- No exit 70\n\n## Constraints\n\n- Never rewrite a bad file\n\n## Forbidden\n\n- `src/storage/**` — frozen\n\n## Non-goals\n\n- Speed\n',
  );
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'state');
  return repo;
}

/** A copy of `repo` (its .git included) in a new temp directory. */
export function copyRepo(repo: string): string {
  const dir = testdir();
  cpSync(repo, dir, { recursive: true });
  return dir;
}
