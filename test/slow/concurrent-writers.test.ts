// Many real processes writing at once (minutes on a 2-core machine, so a tier of their own):
// the lock and the revision compare-and-swap lose no update; the event log's appends interleave
// whole lines with unique, ordered seqs.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reduceStatus } from '../../src/events/reduce.js';
import type { AgentEvent } from '../../src/events/types.js';
import { initState } from '../../src/state/init.js';
import { statePaths } from '../../src/state/paths.js';
import { parseProgress } from '../../src/state/progress.js';
import { BIN, REPO_ROOT, gitdir, testdir } from '../helpers/fixtures.js';

function progressOf(repo: string) {
  const parsed = parseProgress(readFileSync(statePaths(repo).progress, 'utf8'), 'progress.yaml');
  expect(parsed.problems).toEqual([]);
  return parsed.value!;
}

function leftovers(repo: string): string[] {
  const paths = statePaths(repo);
  return [...readdirSync(paths.agentDir), ...readdirSync(paths.stateDir)].filter(
    (n) => n === 'lock' || n.endsWith('.tmp'),
  );
}

function task() {
  const dir = testdir();
  initState({ cwd: dir, goal: 'Test the event log' });
  return { dir, log: () => join(dir, '.agent', 'log', 'events.jsonl') };
}

describe('updateProgress under concurrent writers', () => {
  it('loses no update with 8 processes × 25 `plan add` at once', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const before = progressOf(repo).revision;
    // Each worker is a shell loop of 25 real CLI invocations; all 8 start together.
    const workers = Array.from(
      { length: 8 },
      (_, w) =>
        new Promise<number | null>((resolve) => {
          const script = `for i in $(seq 1 25); do "${process.execPath}" "${BIN}" plan add "worker ${w} item $i" -q || exit 1; done`;
          const child = spawn('sh', ['-c', script], {
            cwd: repo,
            stdio: 'ignore',
            env: { ...process.env, AGENT_STATE_LOCK_TIMEOUT_MS: '60000' },
          });
          child.on('close', resolve);
        }),
    );
    expect(await Promise.all(workers)).toEqual(Array(8).fill(0));
    const after = progressOf(repo);
    expect(after.plan).toHaveLength(200);
    expect(new Set(after.plan!.map((p) => p.id)).size).toBe(200);
    expect(after.revision).toBe(before + 200);
    for (let w = 0; w < 8; w++) {
      const titles = after
        .plan!.filter((p) => p.title.startsWith(`worker ${w} `))
        .map((p) => p.title);
      expect(titles).toEqual(Array.from({ length: 25 }, (_, i) => `worker ${w} item ${i + 1}`));
    }
    expect(leftovers(repo)).toEqual([]);
  }, 180_000);
});

describe('the event log under concurrent appenders', () => {
  it('8 processes × 500 appends at once: 4,000 lines, each valid JSON, seqs unique and in file order', async () => {
    const { dir, log } = task();
    const lib = pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href;
    const script = `
      const { appendEvent } = await import(${JSON.stringify(lib)});
      const [cwd, who] = process.argv.slice(1);
      for (let i = 0; i < 500; i++)
        await appendEvent({ type: 'tool.finished', name: 'writer' + who, i }, { cwd, timeoutMs: 60000 });
    `;
    const run = (who: number) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--input-type=module', '-e', script, dir, String(who)],
          {
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        );
        child.on('error', reject);
        child.on('close', resolve);
      });
    const codes = await Promise.all(Array.from({ length: 8 }, (_, who) => run(who)));
    expect(codes).toEqual(Array(8).fill(0));
    const text = readFileSync(log(), 'utf8');
    const raw = text.split('\n');
    expect(raw.pop()).toBe('');
    expect(raw).toHaveLength(4000);
    const events = raw.map((line) => JSON.parse(line) as AgentEvent);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 4000 }, (_, i) => i + 1));
    const status = reduceStatus(null, events);
    for (let who = 0; who < 8; who++) expect(status.tools[`writer${who}`]!.calls).toBe(500);
  }, 120_000);
});
