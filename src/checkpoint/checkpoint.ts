// checkpoint: verify first, run the tests, then record fingerprint + stamp + an evidence entry in
// one locked step — or refuse and write nothing (DESIGN §3). Optionally commits the state.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CancelledError, UsageError } from '../errors.js';
import { commitEvidenceLocked, prepareEvidence } from '../evidence/add-evidence.js';
import { collectFingerprint } from '../fingerprint/collect.js';
import type { Drift } from '../fingerprint/diff.js';
import { measureDrift } from '../fingerprint/measure-drift.js';
import { commitPaths } from '../git/commit.js';
import { readBlob } from '../git/history.js';
import { sha256 } from '../fingerprint/hash-file.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { findRepo } from '../state/find-root.js';
import { COMMITTED_STATE_PATHS } from '../state/paths.js';
import { resolveAgent } from '../state/agent-name.js';
import { ALLOW_FORBIDDEN_ENV } from '../state/forbidden.js';
import { readConfig, withStateLock } from '../state/store.js';
import { readProgressFor } from '../task/load-state.js';
import { updateProgressLocked } from '../task/update-progress.js';
import type { BaseOptions, FileState, Fingerprint, LastTest, Progress, Warning } from '../types.js';
import type { ForbiddenFinding, VerifyFinding } from '../verify/findings.js';
import { stateNow, throwFirstProblem, verify } from '../verify/verify.js';
import { checkpointEvidence } from './checkpoint-evidence.js';
import { progressDigest } from './progress-digest.js';
import { runTests, type TestRun } from './run-tests.js';

/** A phase of a checkpoint, for progress display. */
export type CheckpointPhase = 'verify' | 'test' | 'fingerprint' | 'write' | 'commit';

export interface CheckpointOptions extends BaseOptions {
  /** One line for the evidence entry (default: "Checkpoint N: tests passed ..."). */
  summary?: string;
  /** Set next_action in the same step. */
  next?: string;
  /** Set the stage in the same step. */
  stage?: string;
  /** Run the configured test command (default true). */
  test?: boolean;
  /** Record the checkpoint even when the tests fail. */
  allowFailing?: boolean;
  /** Commit .agent/state (and config.yaml, .gitignore) afterwards. */
  commit?: boolean;
  /** Aborting kills the test process tree; the checkpoint then writes nothing. */
  signal?: AbortSignal;
  /** Called when a phase starts (the test phase with the command). */
  onPhase?: (phase: CheckpointPhase, detail?: string) => void;
}

/** What a checkpoint did, or why it refused. */
export interface CheckpointResult {
  /** True when the checkpoint was recorded. */
  ok: boolean;
  /** Why it refused: stale markers or forbidden paths (`verify`), failing tests (`tests`); null when recorded. */
  refused: 'verify' | 'tests' | null;
  /** What made it refuse (stale markers, forbidden staged/dirty/untracked paths). */
  findings: VerifyFinding[];
  /** The test run; null when none ran. */
  test: TestRun | null;
  /** stamp.checkpoints after this one; null when refused. */
  checkpoint: number | null;
  fingerprint: Fingerprint | null;
  /** What changed since the previous checkpoint (null for the first). */
  drift: Drift | null;
  evidence: { id: string; file: string; removed: string[]; redactions: number } | null;
  /** Whether stage, next action, plan statuses or markers changed since the previous checkpoint. */
  progress_changed: boolean;
  /** The commit made for `commit`, or git's error. */
  commit: { sha: string } | { error: string } | null;
  revision: number | null;
  warnings: Warning[];
}

// What a checkpoint that refused did not do.
const NOTHING = {
  checkpoint: null,
  fingerprint: null,
  drift: null,
  evidence: null,
  progress_changed: false,
  commit: null,
  revision: null,
} as const;

// Refuse bad input before the tests run, not after.
function checkInputs(options: CheckpointOptions): void {
  const limits: [string, string | undefined, number][] = [
    ['--next', options.next, 2000],
    ['--stage', options.stage, 200],
  ];
  for (const [flag, value, max] of limits) {
    if (value === undefined) continue;
    if (value.trim() === '')
      throw new UsageError(`${flag} is empty`, { hint: `give ${flag} a value or leave it out` });
    if (value.trim().length > max)
      throw new UsageError(`${flag} is longer than ${max} characters`, {
        hint: 'keep it to one line; put details in evidence',
      });
  }
}

function lastTestOf(run: TestRun, at: string): LastTest {
  const { command, exit_code, passed, failed, duration_ms } = run;
  const last: LastTest = { command, exit_code, passed, failed, at, duration_ms };
  if (run.timed_out) last.timed_out = true;
  return last;
}

// The stamp and fields a checkpoint sets; applied to a projection (for the entry) and to the file.
function applyCheckpoint(
  p: Progress,
  options: CheckpointOptions,
  at: string,
  test: TestRun | null,
  fingerprint: Fingerprint,
): { changed: boolean; checkpoints: number } {
  if (options.next !== undefined) p.next_action = options.next.trim();
  if (options.stage !== undefined) p.stage = options.stage.trim();
  const stamp = (p.stamp ??= {});
  const digest = progressDigest(p);
  const changed = stamp.progress_digest !== digest;
  stamp.checkpoints = (stamp.checkpoints ?? 0) + 1;
  stamp.last_checkpoint = at;
  stamp.last_test = test ? lastTestOf(test, at) : null;
  stamp.progress_digest = digest;
  p.fingerprint = fingerprint;
  return { changed, checkpoints: stamp.checkpoints };
}

/**
 * The Forbidden paths a checkpoint accepts changes of (committed: the pre-commit hook let them
 * through by approval, or git ran none), with what each held before; an earlier acceptance stays
 * until the path holds that content again (a revert).
 */
function acceptForbidden(
  root: string,
  hits: readonly ForbiddenFinding[],
  recorded: Fingerprint | null,
  current: Fingerprint,
  env?: NodeJS.ProcessEnv,
): Record<string, FileState> {
  const accepted: Record<string, FileState> = {};
  for (const [path, before] of Object.entries(recorded?.approved ?? {}))
    if (stateNow(root, current, path) !== before) accepted[path] = before;
  for (const { path } of hits) {
    const head = recorded?.git?.head;
    const blob = head ? readBlob(root, head, path, env) : null;
    accepted[path] ??=
      recorded?.dirty[path] ?? recorded?.untracked[path] ?? (blob ? sha256(blob) : 'deleted');
  }
  return accepted;
}

/** Records a checkpoint of the task in `cwd`, or refuses (`ok: false`) and writes nothing. */
export async function checkpoint(options: CheckpointOptions = {}): Promise<CheckpointResult> {
  checkInputs(options);
  const cwd = resolve(options.cwd ?? process.cwd());
  const repo = findRepo(cwd);
  const { paths } = repo;
  if (options.commit && repo.gitRoot === null)
    throw new UsageError('--commit needs a git repository', {
      hint: 'leave out --commit outside git',
    });
  const now = options.now ?? (() => new Date());
  const throwIfAborted = () => {
    if (options.signal?.aborted) throw new CancelledError('cancelled: nothing was written');
  };

  // (a) Stale markers and forbidden staged/dirty/untracked paths refuse. Drift does not: it is
  // what a checkpoint records.
  options.onPhase?.('verify');
  const report = await verify({ ...options, cwd });
  throwFirstProblem(report.problems);
  // A Forbidden change that commits brought in is accepted only by the person's approval: git runs
  // no pre-commit for a cherry-pick, a revert or --no-verify, so a commit proves none.
  const approvedNow = (options.env ?? process.env)[ALLOW_FORBIDDEN_ENV] === '1';
  const approve = `if you approve it, \`${ALLOW_FORBIDDEN_ENV}=1 agent-state checkpoint\``;
  const blocking = report.findings.flatMap((f): VerifyFinding[] => {
    if (f.kind === 'stale_marker') return [f];
    if (f.kind !== 'forbidden' || (f.source === 'changed' && approvedNow)) return [];
    return [f.source === 'changed' ? { ...f, fix: `${f.fix}; ${approve}` } : f];
  });
  const refuse = (refused: 'verify' | 'tests', findings: VerifyFinding[], test: TestRun | null) =>
    ({ ok: false, refused, findings, test, ...NOTHING, warnings: report.warnings }) as const;
  if (blocking.length > 0) return refuse('verify', blocking, null);
  throwIfAborted();

  // (b) The tests, outside the lock: they may take minutes.
  const config = valueOrThrow(readConfig(paths));
  let test: TestRun | null = null;
  if (options.test !== false && config.test) {
    options.onPhase?.('test', config.test);
    test = await runTests(paths, config.test, {
      timeoutMs: config.test_timeout * 1000,
      signal: options.signal,
      env: options.env,
      now,
    });
    if (!test.ok && !options.allowFailing) return refuse('tests', [], test);
  }
  throwIfAborted();

  // The tree after the tests is what the checkpoint vouches for.
  options.onPhase?.('fingerprint');
  const { fingerprint, warnings } = await collectFingerprint({ ...options, cwd, repo, config });
  if (options.test !== false && !config.test)
    warnings.unshift({
      file: '.agent/config.yaml',
      message: 'no test command is configured, so no tests ran (set `test` in .agent/config.yaml)',
    });
  const agent = resolveAgent(options);
  const recorded = valueOrThrow(readProgressFor(paths, agent)).fingerprint ?? null;
  const hits = report.forbidden.filter((f) => f.source === 'changed');
  const approved = acceptForbidden(paths.root, hits, recorded, fingerprint, options.env);
  if (Object.keys(approved).length > 0) fingerprint.approved = approved;
  const drift = recorded
    ? await measureDrift(paths.root, recorded, fingerprint, {
        env: options.env,
        maxHashBytes: config.fingerprint.max_hash_bytes,
      })
    : null;
  throwIfAborted();

  // (c) One locked step: the evidence entry and progress.yaml, or neither.
  options.onPhase?.('write');
  const at = now().toISOString();
  const { evidence, result: update } = await withStateLock(
    paths,
    () => {
      const apply = (p: Progress) => applyCheckpoint(p, options, at, test, fingerprint);
      const projected = structuredClone(valueOrThrow(readProgressFor(paths, agent)));
      const { checkpoints } = apply(projected);
      const input = checkpointEvidence({
        n: checkpoints,
        summary: options.summary,
        progress: projected,
        test,
        drift,
        fingerprint,
        accepted: hits.map((h) => h.path),
      });
      const prepared = prepareEvidence(paths, config, input, new Date(at), agent);
      return commitEvidenceLocked(paths, config, prepared, () =>
        updateProgressLocked(paths, apply, { agent }),
      );
    },
    options,
  );

  // (d) Commit the state, leaving the user's other staged changes alone.
  let commit: CheckpointResult['commit'] = null;
  if (options.commit) {
    options.onPhase?.('commit');
    const message = `chore(agent-state): checkpoint ${update.result.checkpoints} — ${evidence.meta.summary}`;
    try {
      const files = COMMITTED_STATE_PATHS.filter((p) => existsSync(join(paths.root, p)));
      commit = { sha: commitPaths(paths.root, files, message, options.env) };
    } catch (error) {
      commit = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  const { file, removed, redactions } = evidence;
  return {
    ok: true,
    refused: null,
    findings: [],
    test,
    checkpoint: update.result.checkpoints,
    fingerprint,
    drift,
    evidence: { id: evidence.meta.id, file, removed, redactions },
    progress_changed: update.result.changed,
    commit,
    revision: update.progress.revision,
    warnings,
  };
}
