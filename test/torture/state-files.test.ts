// Malformed state files × the commands that read them: every run exits with a documented code
// (never 70), prints no stack trace and no control character, a failed command changes no state
// file, no command writes while a state file is invalid (the bad file is never rewritten), and a
// write of progress.yaml leaves no secret in it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, readGoals, readProgress } from '../../src/state/store.js';
import { statePaths } from '../../src/state/paths.js';
import { git } from '../helpers/fixtures.js';
import {
  SEED,
  WIDTH,
  checkRun,
  clip,
  copyRepo,
  expectNoViolations,
  pool,
  readTree,
  report,
  richRepo,
  runBin,
  scaled,
  secretIn,
  stateSnapshot,
  type Violation,
} from './harness.js';
import { STATE_FILES, fuzzedFiles, type FuzzedFile, type StateFile } from './state-fuzz.js';

/** The commands every malformed file meets: readers, writers, the git hook. */
const COMMANDS: string[][] = [
  ['status'],
  ['boot', '--fast'],
  ['verify'],
  ['next', 'Fuzzed next action'],
  ['plan', 'add', 'Fuzzed plan item'],
  ['checkpoint', '--no-test', '-m', 'fuzzed'],
  ['hook', 'pre-commit'],
];

// Whether the state as a whole is valid, by the library's own reading (what every command uses).
function stateIsValid(root: string): boolean {
  try {
    const paths = statePaths(root);
    if (readConfig(paths).problems.length > 0) return false;
    if (readProgress(paths).problems.length > 0) return false;
    readGoals(paths);
    return true;
  } catch {
    return false;
  }
}

function describeInput(input: FuzzedFile): string {
  return `${STATE_FILES[input.file]} (${input.how}): ${JSON.stringify(clip(input.bytes.toString('latin1'), 400))}`;
}

describe('malformed state files × commands', () => {
  it(`${scaled(100)} files × ${COMMANDS.length} commands: no exit 70, no stack trace, no rewrite of a bad file`, async () => {
    const template = await richRepo();
    const baselines = Object.fromEntries(
      Object.entries(STATE_FILES).map(([key, rel]) => [
        key,
        readFileSync(join(template, rel), 'utf8'),
      ]),
    ) as Record<StateFile, string>;
    const inputs = fuzzedFiles(baselines, scaled(100), SEED);
    const slots = Array.from({ length: WIDTH }, () => copyRepo(template));
    const free = [...slots];
    const violations: Violation[] = [];
    let runs = 0;
    let invalid = 0;

    await pool(inputs, WIDTH, async (input) => {
      const repo = free.pop()!;
      try {
        // The baseline state with one file replaced, staged (the pre-commit hook reads the index).
        for (const [key, rel] of Object.entries(STATE_FILES))
          writeFileSync(
            join(repo, rel),
            key === input.file ? input.bytes : baselines[key as StateFile],
          );
        git(repo, 'add', '-A', '.agent');
        const valid = stateIsValid(repo);
        if (!valid) invalid++;
        const fuzzed = join(repo, STATE_FILES[input.file]);
        for (const args of COMMANDS) {
          const before = stateSnapshot(repo);
          const progressBefore = readFileSync(join(repo, STATE_FILES.progress), 'latin1');
          const run = await runBin(repo, args, { timeoutMs: 60_000 });
          runs++;
          const context = describeInput(input);
          violations.push(...checkRun(run, context));
          const after = stateSnapshot(repo);
          if (run.code !== 0 && after !== before)
            violations.push({
              kind: 'rewrite of a bad file',
              detail: `${context}: \`${args.join(' ')}\` failed (exit ${run.code}) and still changed the state\n${clip(run.stderr)}`,
            });
          if (!valid && after !== before)
            violations.push({
              kind: 'rewrite of a bad file',
              detail: `${context}: \`${args.join(' ')}\` wrote while a state file is invalid (exit ${run.code})`,
            });
          if (!valid && readFileSync(fuzzed).compare(input.bytes) !== 0)
            violations.push({
              kind: 'rewrite of a bad file',
              detail: `${context}: \`${args.join(' ')}\` changed the bad file itself`,
            });
          const progressAfter = readFileSync(join(repo, STATE_FILES.progress), 'latin1');
          const leaked =
            progressAfter !== progressBefore
              ? secretIn(Buffer.from(progressAfter, 'latin1').toString())
              : null;
          if (leaked)
            violations.push({
              kind: 'secret on disk',
              detail: `${context}: \`${args.join(' ')}\` wrote progress.yaml with ${leaked.slice(0, 12)}…`,
            });
        }
        for (const [path, text] of Object.entries({
          ...readTree(join(repo, '.agent/log')),
          ...readTree(join(repo, '.agent/state/evidence')),
        })) {
          const leaked = secretIn(Buffer.from(text, 'latin1').toString());
          if (leaked)
            violations.push({
              kind: 'secret on disk',
              detail: `${describeInput(input)}: ${path} holds ${leaked.slice(0, 12)}…`,
            });
        }
      } finally {
        // Back to the committed baseline for the next file (logs and artifacts may stay).
        git(repo, 'checkout', '-q', 'HEAD', '--', '.agent');
        git(repo, 'clean', '-q', '-fd', '--', '.agent/state');
        free.push(repo);
      }
    });

    report(
      'state-files',
      { files: inputs.length, commands: COMMANDS.length, runs, invalid },
      violations,
    );
    expectNoViolations(violations);
    // The fuzzing reached the refusals it is about, and valid files still work.
    expect(invalid).toBeGreaterThan(inputs.length / 4);
    expect(invalid).toBeLessThan(inputs.length);
  });
});
