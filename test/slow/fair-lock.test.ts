// 16 processes × 50 mutations of progress.yaml at once (plan add, memory add, remind, next), on a
// machine kept busy by two spinning processes: every one of the 800 commands waits its turn and
// lands (no exit 4), and no update is lost. The lock's default timeout applies.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/state/paths.js';
import { parseProgress } from '../../src/state/progress.js';
import { BIN, gitdir, runCli } from '../helpers/fixtures.js';

const WORKERS = 16;
const EACH = 50;

// The spinners and the workers (each in its own process group, with the CLI it is running):
// stopped after the test even when it fails or times out.
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started)
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
});

describe('concurrent writers on a loaded machine', () => {
  // 800 CLI runs take about a minute on two idle cores; a loaded machine needs far longer.
  it(
    `${WORKERS} × ${EACH} mutations: no busy exit, no lost update`,
    { timeout: 1_200_000 },
    async () => {
      const repo = gitdir();
      expect((await runCli(repo, ['init', '--goal', 'Take turns'])).code).toBe(0);
      const spinners = Array.from({ length: 2 }, () =>
        spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }),
      );
      started.push(...spinners);
      const { AGENT_STATE_LOCK_TIMEOUT_MS: _, ...env } = process.env;
      const start = Date.now();
      const results = await Promise.all(
        Array.from({ length: WORKERS }, (_, w) => {
          // Each worker runs its 50 commands in order and prints each one's exit code.
          const script = [
            `for i in $(seq 1 ${EACH}); do`,
            '  case $((i % 4)) in',
            `    0) set -- plan add "w${w} step $i" ;;`,
            `    1) set -- memory add "w${w} note $i" ;;`,
            `    2) set -- remind "w${w} reminder $i" ;;`,
            `    3) set -- next "w${w} next $i" ;;`,
            '  esac',
            `  "${process.execPath}" "${BIN}" "$@" -q; echo "$i $?"`,
            'done',
          ].join('\n');
          return new Promise<Map<number, number>>((resolve) => {
            const child = spawn('sh', ['-c', script], { cwd: repo, env, detached: true });
            started.push(child);
            let out = '';
            child.stdout.on('data', (d: Buffer) => (out += d.toString()));
            child.on('close', () => {
              const codes = out
                .trim()
                .split('\n')
                .map((line) => line.split(' ').map(Number) as [number, number]);
              resolve(new Map(codes));
            });
          });
        }),
      );
      const seconds = (Date.now() - start) / 1000;
      for (const spinner of spinners) process.kill(-spinner.pid!, 'SIGKILL');
      const codes = results.flatMap((r) => [...r.values()]);
      const busy = codes.filter((c) => c === 4).length;
      const failed = codes.filter((c) => c !== 0 && c !== 4).length;
      const progress = parseProgress(
        readFileSync(statePaths(repo).progress, 'utf8'),
        'progress.yaml',
      ).value!;
      // A lost update: a command that exited 0 whose item is not in the file, or whose write the
      // revision (incremented by every write) does not count.
      const texts = new Set([
        ...(progress.plan ?? []).map((p) => p.title),
        ...(progress.memory?.working ?? []),
        ...(progress.reminders ?? []).map((r) => r.text),
      ]);
      const kinds = ['step', 'note', 'reminder', 'next'];
      let lost = 0;
      let landed = 0;
      results.forEach((byStep, w) => {
        for (const [i, code] of byStep) {
          if (code !== 0) continue;
          landed++;
          if (i % 4 !== 3 && !texts.has(`w${w} ${kinds[i % 4]!} ${i}`)) lost++;
        }
      });
      lost += Math.max(0, landed - progress.revision);
      console.log(
        `${WORKERS} × ${EACH} concurrent mutations: ${busy} busy exits, ${failed} other failures, ${lost} lost updates, ${landed} landed, revision ${progress.revision}, ${seconds.toFixed(1)} s`,
      );
      expect(codes).toHaveLength(WORKERS * EACH);
      expect({ busy, failed, lost }).toEqual({ busy: 0, failed: 0, lost: 0 });
      expect(progress.revision).toBe(WORKERS * EACH);
      // Each worker's items are in the order it wrote them.
      for (let w = 0; w < WORKERS; w++) {
        const steps = Array.from({ length: EACH }, (_, i) => i + 1);
        const mine = (list: string[], kind: string) =>
          list.filter((t) => t.startsWith(`w${w} ${kind} `));
        expect(
          mine(
            (progress.plan ?? []).map((p) => p.title),
            'step',
          ),
        ).toEqual(steps.filter((i) => i % 4 === 0).map((i) => `w${w} step ${i}`));
        expect(mine(progress.memory?.working ?? [], 'note')).toEqual(
          steps.filter((i) => i % 4 === 1).map((i) => `w${w} note ${i}`),
        );
        expect(
          mine(
            (progress.reminders ?? []).map((r) => r.text),
            'reminder',
          ),
        ).toEqual(steps.filter((i) => i % 4 === 2).map((i) => `w${w} reminder ${i}`));
      }
    },
  );
});
