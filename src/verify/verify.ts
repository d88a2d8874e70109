// verify: does the state agree with the tree? Parse + schema of every state file, stale markers,
// forbidden paths among the changed files, and drift against the recorded fingerprint.
import { join, resolve } from 'node:path';
import { resolveAgent } from '../state/agent-name.js';
import { InvalidStateError } from '../errors.js';
import { collectFingerprint } from '../fingerprint/collect.js';
import type { Drift } from '../fingerprint/diff.js';
import { measureDrift } from '../fingerprint/measure-drift.js';
import { checkProgressMarkers, type MarkerCheck } from '../markers/check-markers.js';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { findRepo, type Repo } from '../state/find-root.js';
import { hashFile } from '../fingerprint/hash-file.js';
import type { BaseOptions, FileState, Fingerprint, Goals, Warning } from '../types.js';
import {
  driftFindings,
  forbiddenFindings,
  markerFindings,
  type ForbiddenFinding,
  type ForbiddenSource,
  type VerifyFinding,
} from './findings.js';
import { readStateChecked, type CheckedState, type StateProblem } from './read-state-checked.js';

/** Everything verify found. */
export interface VerifyReport {
  /** True when the state files are valid and there is no finding. */
  ok: boolean;
  root: string;
  /** Problems of the state files; when there are any, the other checks did not run. */
  problems: StateProblem[];
  markers: MarkerCheck[];
  forbidden: ForbiddenFinding[];
  /** Null before the first checkpoint (nothing to compare with) or when the files are invalid. */
  drift: Drift | null;
  /** When the last checkpoint was recorded; null before the first. */
  last_checkpoint: string | null;
  /** The fingerprint of the tree now; null when the files are invalid. */
  fingerprint: Fingerprint | null;
  findings: VerifyFinding[];
  warnings: Warning[];
}

/** Forbidden paths among the dirty, untracked and changed-since-checkpoint files. */
export async function forbiddenChanges(
  goals: Goals,
  current: Fingerprint,
  drift: Drift | null,
  root: string,
): Promise<ForbiddenFinding[]> {
  if (!goals.forbidden.some((entry) => entry.globs.length > 0)) return [];
  // Loaded only when there are globs to match (picomatch costs ~10 ms of start-up).
  const { caseInsensitive, findForbidden } = await import('../state/forbidden.js');
  const sources = new Map<string, ForbiddenSource>();
  for (const path of Object.keys(current.dirty)) sources.set(path, 'dirty');
  for (const path of Object.keys(current.untracked)) sources.set(path, 'untracked');
  for (const file of drift?.files ?? [])
    for (const path of [file.path, file.from ?? file.path])
      if (!sources.has(path)) sources.set(path, 'changed');
  const nocase = caseInsensitive(root);
  return findForbidden(goals.forbidden, sources.keys(), { nocase }).map((hit) => ({
    ...hit,
    source: sources.get(hit.path)!,
  }));
}

/** What `path` holds now, as a fingerprint records it (`deleted` when it is gone). */
export function stateNow(root: string, current: Fingerprint, path: string): FileState {
  return current.dirty[path] ?? current.untracked[path] ?? hashFile(join(root, path)) ?? 'deleted';
}

/** Verifies the state of `cwd` against its tree. Never throws for what it finds; see `ok`. */
export async function verify(options: BaseOptions = {}): Promise<VerifyReport> {
  const repo = findRepo(options.cwd === undefined ? undefined : resolve(options.cwd));
  // git starts now and works while the state files are read (the CLI may have started it already).
  if (repo.gitRoot !== null) prefetchGitSnapshot(repo.paths.root, repo.gitRoot, options.env);
  return verifyChecked(repo, readStateChecked(repo.paths, resolveAgent(options)), options);
}

/** Verifies state already read (by readStateChecked) against the tree of `repo`. */
export async function verifyChecked(
  repo: Repo,
  state: CheckedState,
  options: BaseOptions & {
    /** Write nothing, not even the marker hash cache in .agent/log (the ui page reads only). */
    readOnly?: boolean;
  } = {},
): Promise<VerifyReport> {
  if (state.problems.length > 0 || !state.config || !state.goals || !state.progress) {
    return {
      ok: false,
      root: repo.paths.root,
      problems: state.problems,
      markers: [],
      forbidden: [],
      drift: null,
      last_checkpoint: null,
      fingerprint: null,
      findings: [],
      warnings: state.warnings,
    };
  }
  const { config, goals, progress } = state;
  const root = repo.paths.root;
  const { env } = options;
  // Takes over the snapshot started by the caller; git's answer also vouches for big markers.
  const collected = await collectFingerprint({ ...options, repo, config });
  const { fingerprint, snapshot } = collected;
  const check = { save: !options.readOnly, snapshot, env };
  const markers = checkProgressMarkers(root, progress, undefined, repo.paths.logDir, check);
  const recorded = progress.fingerprint ?? null;
  const maxHashBytes = config.fingerprint.max_hash_bytes;
  const drift =
    recorded && (await measureDrift(root, recorded, fingerprint, { env, maxHashBytes }));
  // A path back at what it held before an accepted change (a revert) breaks no rule.
  const approved = recorded?.approved ?? {};
  const forbidden = (await forbiddenChanges(goals, fingerprint, drift, root)).filter(
    ({ path }) =>
      approved[path] === undefined || approved[path] !== stateNow(root, fingerprint, path),
  );
  const findings = [
    ...markerFindings(markers),
    ...forbiddenFindings(forbidden),
    ...driftFindings(drift),
  ];
  return {
    ok: findings.length === 0,
    root,
    problems: [],
    markers,
    forbidden,
    drift,
    last_checkpoint: progress.stamp?.last_checkpoint ?? null,
    fingerprint,
    findings,
    warnings: [...state.warnings, ...collected.warnings],
  };
}

/** Throws the first state-file problem of a report as an InvalidStateError (exit 2). */
export function throwFirstProblem(problems: readonly StateProblem[]): void {
  const first = problems[0];
  if (!first) return;
  throw new InvalidStateError(
    `${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more: run \`agent-state verify\`)` : ''}`,
    {
      location: { file: first.file, line: first.line, column: first.column },
      hint: first.hint,
      details: problems,
    },
  );
}
