// The state store: loading every state file with its problems, and mutating progress.yaml under
// the lock with a revision compare-and-swap. A file that does not parse or validate is never
// rewritten.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { ConflictError, InvalidStateError, formatLocation } from '../errors.js';
import type { BaseOptions, Config, Goals, Progress, Warning } from '../types.js';
import { redactSecrets } from '../evidence/redact.js';
import { writeFileAtomic, TEMP_SUFFIX } from './atomic-write.js';
import { parseConfig, resolveConfig } from './config.js';
import { findRoot } from './find-root.js';
import { recordNextAction } from './next-action-history.js';
import { parseGoals, setGoalAnchor } from './goals.js';
import { acquireLock, type LockOptions } from './lock.js';
import { valueOrThrow, type ParsedFile } from './parsed-file.js';
import { displayPath, type StatePaths } from './paths.js';
import { checkProgress, parseProgress } from './progress.js';
import { readStateText } from './read-text.js';
import { syncDocument } from './yaml-sync.js';
import { settleVolatile } from '../recovery/settle.js';
import { detectYamlStyle } from './yaml-doc.js';

/** Everything a command needs to know about the task, read from disk. */
export interface LoadedState {
  paths: StatePaths;
  config: Config;
  goals: Goals;
  progress: Progress;
  /** Non-fatal findings (goals.md without an anchor, an empty section, ...). */
  warnings: Warning[];
}

function restoreHint(paths: StatePaths, file: string): string {
  return `restore it from git (\`git checkout -- ${displayPath(paths, file)}\`) or fix it by hand; see docs/protocol.md`;
}

/** Reads and parses progress.yaml without throwing for bad content (for `validate`). */
export function readProgress(paths: StatePaths): ParsedFile<Progress> & { text: string } {
  const display = displayPath(paths, paths.progress);
  const text = readStateText(paths.progress, {
    display,
    restoreHint: restoreHint(paths, paths.progress),
  });
  return { ...parseProgress(text, display), text };
}

/** Reads config.yaml; a missing file means every default. */
export function readConfig(paths: StatePaths): ParsedFile<Config> {
  if (!existsSync(paths.config)) return { value: resolveConfig(null), problems: [], warnings: [] };
  const display = displayPath(paths, paths.config);
  const text = readStateText(paths.config, {
    display,
    allowEmpty: true,
    restoreHint: restoreHint(paths, paths.config),
  });
  return parseConfig(text, display);
}

/** Reads goals.md; a missing file is an empty goal layer with a warning. */
export function readGoals(paths: StatePaths): { goals: Goals; warnings: Warning[]; text: string } {
  const display = displayPath(paths, paths.goals);
  if (!existsSync(paths.goals)) {
    const parsed = parseGoals('', display);
    return { ...parsed, text: '' };
  }
  const text = readStateText(paths.goals, {
    display,
    allowEmpty: true,
    restoreHint: restoreHint(paths, paths.goals),
  });
  return { ...parseGoals(text, display), text };
}

/** Loads the whole state of the task that `cwd` belongs to; throws on the first invalid file. */
export function loadState(options: BaseOptions = {}): LoadedState {
  const paths = findRoot(options.cwd);
  const config = valueOrThrow(readConfig(paths));
  const goals = readGoals(paths);
  const progress = valueOrThrow(readProgress(paths));
  return { paths, config, goals: goals.goals, progress, warnings: goals.warnings };
}

export interface UpdateOptions extends BaseOptions, Pick<LockOptions, 'timeoutMs' | 'staleMs'> {
  /** Fail with ConflictError unless the stored revision is exactly this (optimistic concurrency). */
  expectRevision?: number;
}

export interface UpdateResult<T> {
  /** The progress as stored after the update. */
  progress: Progress;
  /** False when the mutator changed nothing (then nothing was written). */
  changed: boolean;
  /** What the mutator returned. */
  result: T;
}

/** Runs `fn` holding the state lock; also sweeps temp files that crashed writers left behind. */
export async function withStateLock<T>(
  paths: StatePaths,
  fn: () => T | Promise<T>,
  options: UpdateOptions = {},
): Promise<T> {
  const lock = await acquireLock(paths.lock, {
    timeoutMs: options.timeoutMs,
    staleMs: options.staleMs,
    now: options.now,
    display: displayPath(paths, paths.lock),
  });
  try {
    sweepTempFiles(paths);
    return await fn();
  } finally {
    lock.release();
  }
}

// Every writer holds the lock, so a temp file seen while holding it belongs to a dead writer.
function sweepTempFiles(paths: StatePaths): void {
  for (const dir of [paths.agentDir, paths.stateDir, paths.evidenceDir]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.endsWith(TEMP_SUFFIX)) rmSync(`${dir}/${name}`, { force: true });
    }
  }
}

const MAX_CAS_ATTEMPTS = 5;

// Redacts every string of the arrays and plain objects in `value`, in place.
function redactInPlace(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v === 'string') {
      const text = redactSecrets(v).text;
      if (text !== v) record[key] = text;
    } else redactInPlace(v);
  }
}

/**
 * Applies `mutator` to progress.yaml atomically: under the lock, on a freshly read and validated
 * copy; increments `revision`; keeps comments and key order; writes nothing when nothing changed.
 * If the file changes between read and write (a hand edit), the mutation is replayed.
 */
export async function updateProgress<T>(
  mutator: (progress: Progress) => T | Promise<T>,
  options: UpdateOptions = {},
): Promise<UpdateResult<T>> {
  const paths = findRoot(options.cwd);
  return withStateLock(paths, () => updateProgressLocked(paths, mutator, options), options);
}

/** updateProgress for a caller that already holds the state lock (to write more files in the same step). */
export async function updateProgressLocked<T>(
  paths: StatePaths,
  mutator: (progress: Progress) => T | Promise<T>,
  options: Pick<UpdateOptions, 'expectRevision' | 'now'> = {},
): Promise<UpdateResult<T>> {
  for (let attempt = 1; ; attempt++) {
    const read = readProgress(paths);
    const current = valueOrThrow(read);
    if (options.expectRevision !== undefined && current.revision !== options.expectRevision) {
      throw new ConflictError(
        `progress.yaml is at revision ${current.revision}, not ${options.expectRevision}: it changed since it was read`,
        { hint: 'read the state again and reapply the change' },
      );
    }
    const draft = structuredClone(current);
    const result = await mutator(draft);
    // Done here, once, so that every writer (next, checkpoint, library callers) keeps it.
    recordNextAction(current, draft, (options.now ?? (() => new Date()))());
    // progress.yaml is committed: no secret goes into it, whichever writer brought it; nor into
    // what the writer reports (`memory add` prints the note it added).
    redactInPlace(draft);
    redactInPlace(result);
    if (isDeepStrictEqual(draft, current)) return { progress: current, changed: false, result };
    draft.revision = current.revision + 1;
    // The counters of 0.1.0 move to the local record; reminders a boot showed leave the file.
    const settled = settleVolatile(paths, draft);
    const text = serializeProgress(read, draft);
    const now = readStateText(paths.progress, { display: 'progress.yaml', restoreHint: '' });
    if (now !== read.text) {
      if (attempt >= MAX_CAS_ATTEMPTS)
        throw new ConflictError('progress.yaml keeps changing while being updated', {
          hint: 'stop the other writer and retry',
        });
      continue;
    }
    writeFileAtomic(paths.progress, text);
    settled.written();
    return { progress: draft, changed: true, result };
  }
}

// Applies the new value to the parsed document (keeping comments) and refuses to produce a file
// that would not validate.
function serializeProgress(read: ParsedFile<Progress> & { text: string }, next: Progress): string {
  const located = read.located!;
  syncDocument(located.doc, next);
  const problems = checkProgress(located.doc.toJS(), located);
  const first = problems[0];
  if (first) {
    throw new InvalidStateError(`the change would make progress.yaml invalid: ${first.message}`, {
      hint: first.hint,
      details: problems.map((p) => ({ at: formatLocation(p.location), message: p.message })),
    });
  }
  return located.doc.toString(detectYamlStyle(read.text));
}

/** Sets the goal anchor in goals.md, rewriting only that paragraph. Returns whether it changed. */
export async function setGoal(
  anchor: string,
  options: UpdateOptions = {},
): Promise<{ changed: boolean; goals: Goals; warnings: Warning[] }> {
  const paths = findRoot(options.cwd);
  return withStateLock(
    paths,
    () => {
      const { text } = readGoals(paths);
      const next = setGoalAnchor(text, redactSecrets(anchor).text);
      if (next !== text) writeFileAtomic(paths.goals, next);
      const parsed = parseGoals(next, displayPath(paths, paths.goals));
      return { changed: next !== text, ...parsed };
    },
    options,
  );
}
