// kill -9 at a random instant of checkpoint, done, evidence add and plan add. Whatever the instant:
// every state file is whole and valid (the old or the new one), the next writer takes the dead
// writer's lock over and succeeds, no temp file is left behind once it has run, and a killed
// checkpoint's test process dies with it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { listEvidence } from '../../src/evidence/evidence-folder.js';
import { readConfig, readProgress } from '../../src/state/store.js';
import { statePaths } from '../../src/state/paths.js';
import { BIN, git } from '../helpers/fixtures.js';
import {
  CLEAN_ENV,
  SEED,
  checkRun,
  clip,
  expectNoViolations,
  report,
  richRepo,
  runBin,
  scaled,
  type Violation,
} from './harness.js';

type Target = 'checkpoint' | 'checkpoint-tests' | 'done' | 'evidence' | 'plan';

const TARGETS: Target[] = ['checkpoint', 'checkpoint-tests', 'done', 'evidence', 'plan'];

// How long each command runs here, roughly: the kill lands anywhere from its start to its end.
const SPAN_MS: Record<Target, number> = {
  checkpoint: 1500,
  'checkpoint-tests': 1500,
  done: 1500,
  evidence: 1500,
  plan: 700,
};

// A marker in the test command's arguments: a test process still running after the kill is found
// by it (and ended by its pid).
const MARKER = `agent-state-torture-${process.pid}`;

function argsFor(target: Target, trial: number): string[] {
  switch (target) {
    case 'checkpoint':
    case 'checkpoint-tests':
      return ['checkpoint', '-m', `killed ${trial}`];
    case 'done':
      return ['done', 't2', '--files', 'big/**'];
    case 'evidence':
      return [
        'evidence',
        'add',
        '--kind',
        'test',
        '--summary',
        `killed ${trial}`,
        '--raw',
        'big.log',
      ];
    case 'plan':
      return ['plan', 'add', `killed ${trial}`];
  }
}

function tempFiles(repo: string): string[] {
  const dirs = [
    '.agent',
    '.agent/state',
    '.agent/state/evidence',
    '.agent/state/markers',
    '.agent/artifacts',
    '.agent/log',
  ];
  return dirs.flatMap((dir) =>
    existsSync(join(repo, dir))
      ? readdirSync(join(repo, dir))
          .filter((name) => name.endsWith('.tmp'))
          .map((name) => `${dir}/${name}`)
      : [],
  );
}

function orphans(): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout;
  return ps
    .split('\n')
    .filter((line) => line.includes(MARKER) && !line.includes('ps -eo'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function stateProblems(repo: string): string[] {
  try {
    const paths = statePaths(repo);
    return [
      ...readConfig(paths).problems.map((p) => `config: ${p.message}`),
      ...readProgress(paths).problems.map((p) => `progress: ${p.message}`),
      ...listEvidence({ cwd: repo }).problems.map((p) => `evidence: ${p.message}`),
    ];
  } catch (error) {
    return [String(error)];
  }
}

async function repoFor(target: Target): Promise<string> {
  const repo = await richRepo();
  mkdirSync(join(repo, 'big'));
  for (let i = 0; i < 400; i++)
    writeFileSync(join(repo, 'big', `f${i}.txt`), `${'x'.repeat(4096)}${i}\n`);
  writeFileSync(join(repo, 'big.log'), `${'log line with nothing secret in it\n'.repeat(600_000)}`);
  const test =
    target === 'checkpoint-tests'
      ? `node -e "setTimeout(() => {}, 30000)" ${MARKER}`
      : `node -e "console.log('Tests 3 passed')"`;
  writeFileSync(
    join(repo, '.agent/config.yaml'),
    `version: 1\ntest: ${JSON.stringify(test)}\ntest_timeout: 60\n`,
  );
  writeFileSync(join(repo, '.gitignore'), 'big.log\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'kill -9 fixture');
  return repo;
}

describe('kill -9 at a random instant', () => {
  const perTarget = scaled(6, 20);
  it(`${perTarget} kills of each of ${TARGETS.join(', ')}: whole state, lock taken over, no litter`, async () => {
    const violations: Violation[] = [];
    let trials = 0;
    for (const [t, target] of TARGETS.entries()) {
      const repo = await repoFor(target);
      const delays = fc.sample(fc.integer({ min: 0, max: SPAN_MS[target] }), {
        numRuns: perTarget,
        seed: SEED + t,
      });
      for (const [trial, delay] of delays.entries()) {
        trials++;
        const args = argsFor(target, trial);
        const context = `kill -9 after ${delay} ms of \`agent-state ${args.join(' ')}\``;
        // `done` needs an item that is not done yet: put t2 back first.
        if (target === 'done') await runBin(repo, ['undone', 't2']);
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: repo,
          env: CLEAN_ENV,
          stdio: 'ignore',
        });
        const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
        await sleep(delay);
        child.kill('SIGKILL');
        await exited;

        const problems = stateProblems(repo);
        if (problems.length > 0)
          violations.push({ kind: 'torn state', detail: `${context}: ${problems.join('; ')}` });
        const next = await runBin(repo, ['plan', 'add', `after kill ${t}-${trial}`], {
          timeoutMs: 60_000,
        });
        violations.push(...checkRun(next, context));
        if (next.code !== 0)
          violations.push({
            kind: 'writer blocked after a kill',
            detail: `${context}: the next plan add exited ${next.code}: ${clip(next.stderr)}`,
          });
        const litter = tempFiles(repo);
        if (litter.length > 0)
          violations.push({
            kind: 'temp litter',
            detail: `${context}: ${litter.join(', ')} left after the next write`,
          });
        if (target === 'checkpoint-tests') {
          await sleep(1000);
          const alive = orphans();
          if (alive.length > 0) {
            violations.push({
              kind: 'orphan test process',
              detail: `${context}: test pids ${alive.join(', ')} still running`,
            });
            for (const pid of alive) {
              try {
                process.kill(pid, 'SIGKILL');
              } catch {
                // already gone
              }
            }
          }
        }
      }
    }
    report('kill9', { trials }, violations);
    expectNoViolations(violations);
  });
});
