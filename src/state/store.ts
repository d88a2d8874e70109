// The state store, ground floor of every write: it reads each state file with its problems, holds
// the lock, and writes progress files by compare-and-swap, keeping comments. It knows no rule of a
// write (agents, claims, history: src/task/) and never rewrites a file that does not validate.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { visit, type Document } from 'yaml';
import { ConflictError, InvalidStateError, formatLocation } from '../errors.js';
import type { Goals, Progress, Warning } from '../types.js';
import { redactSecrets } from '../text/redact.js';
import { writeFileAtomic, TEMP_SUFFIX } from './atomic-write.js';
import { readConfig } from './config.js';
import { findRoot, listDir } from './find-root.js';
import { parseGoals, setGoalAnchor } from './goals.js';
import { acquireLock, processAlive, type LockOptions } from './lock.js';
import { valueOrThrow, type ParsedFile } from './parsed-file.js';
import { agentProgressPath, displayPath, type StatePaths } from './paths.js';
import { checkProgress, parseProgress } from './progress.js';
import { cachedProgress, PROGRESS_CACHE_MIN_CHARS, rememberProgress } from './progress-cache.js';
import { readConfigCache } from './config-cache.js';

export { readConfig };
import { MAX_STATE_FILE_BYTES, readStateText } from './read-text.js';
import { syncDocument } from './yaml-sync.js';
import type { BaseOptions } from '../types.js';
import { detectYamlStyle, parseYaml, type LocatedDocument } from './yaml-doc.js';

/** How long to wait for the lock, and when a holder counts as gone. */
export interface LockWait
  extends Pick<BaseOptions, 'now'>, Pick<LockOptions, 'timeoutMs' | 'staleMs'> {}

const BY_HAND = 'fix it by hand; see docs/protocol.md';

// Reads a state file as text; `fix`: how else than from git the hint says to mend it.
function readText(paths: StatePaths, file: string, allowEmpty = false, fix = BY_HAND): string {
  const display = displayPath(paths, file);
  const restoreHint = `restore it from git (\`git checkout -- ${display}\`) or ${fix}`;
  return readStateText(file, { display, allowEmpty, restoreHint });
}

// A large file read before comes from the parse cache; its YAML document is parsed on first use.
/** Reads and parses progress.yaml without throwing for bad content (for `validate`). */
export function readProgress(paths: StatePaths): ParsedFile<Progress> & { text: string } {
  const display = displayPath(paths, paths.progress);
  const text = readText(paths, paths.progress);
  const cached = cachedProgress(paths, text);
  if (cached) {
    let located: LocatedDocument | undefined;
    return {
      value: cached,
      problems: [],
      warnings: [],
      text,
      get located() {
        return (located ??= parseProgress(text, display).located);
      },
    };
  }
  const parsed = parseProgress(text, display);
  // A read makes a cache only of a large file: a small one is cached by its next write (so that a
  // dry run writes nothing); a large one costs a second to parse, each time.
  if (parsed.value && text.length >= PROGRESS_CACHE_MIN_CHARS)
    rememberProgress(paths, text, parsed.value);
  return { ...parsed, text };
}

/** Reads a named agent's own file; a missing file has no value and `text` null. */
export function readAgentProgress(
  paths: StatePaths,
  agent: string,
): ParsedFile<Progress> & { text: string | null } {
  const path = agentProgressPath(paths, agent);
  if (!existsSync(path)) return { value: undefined, problems: [], warnings: [], text: null };
  const fix = 'delete it (the agent starts afresh); see docs/multi-agent.md';
  const text = readText(paths, path, false, fix);
  return { ...parseProgress(text, displayPath(paths, path), agent), text };
}

/** Reads goals.md; a missing file is an empty goal layer with a warning. */
export function readGoals(paths: StatePaths): { goals: Goals; warnings: Warning[]; text: string } {
  const display = displayPath(paths, paths.goals);
  const text = existsSync(paths.goals) ? readText(paths, paths.goals, true) : '';
  return { ...parseGoals(text, display), text };
}

// Every writer calls it under the lock: no progress against settings or goals readers refuse.
/** Throws the first problem of config.yaml or goals.md (InvalidStateError, exit 2); the goals read. */
export function assertWritableState(paths: StatePaths): ReturnType<typeof readGoals> {
  if (!readConfigCache(paths)) valueOrThrow(readConfig(paths));
  return readGoals(paths);
}

/**
 * Runs `fn` under the state lock once config and goals validate, sweeping dead writers' temps;
 * `fn` gets the goals as read under the lock.
 */
export async function withStateLock<T>(
  paths: StatePaths,
  fn: (goals: ReturnType<typeof readGoals>) => T | Promise<T>,
  options: LockWait = {},
): Promise<T> {
  const lock = await acquireLock(paths.lock, {
    ...options,
    queueDir: join(paths.logDir, 'lock-queue'),
    display: displayPath(paths, paths.lock),
  });
  try {
    sweepTempFiles(paths);
    return await fn(assertWritableState(paths));
  } finally {
    lock.release();
  }
}

// Under the lock, a temp file of the state is a dead writer's. Artifacts and the log's caches are
// written outside the lock: theirs go once the process their name holds (tempPathFor) is gone.
function sweepTempFiles(paths: StatePaths): void {
  const agents = listDir(paths.agentsDir).map((name) => join(paths.agentsDir, name));
  const ours = [paths.agentDir, paths.stateDir, paths.evidenceDir, paths.markersDir, ...agents];
  for (const dir of [...ours, paths.artifactsDir, paths.logDir])
    for (const name of listDir(dir).filter((n) => n.endsWith(TEMP_SUFFIX))) {
      const pid = Number(/\.(\d+)\.[^.]+\.tmp$/.exec(name)?.[1]);
      if (ours.includes(dir) || (Number.isInteger(pid) && pid > 0 && !processAlive(pid)))
        rmSync(join(dir, name), { force: true });
    }
}

const MAX_CAS_ATTEMPTS = 5;

/** A progress file taking part in a write: progress.yaml (agent null) or an agent's own file. */
export interface ProgressFile {
  path: string;
  agent: string | null;
  /** The first text of the file when it does not exist yet (comments, version, revision). */
  template?: string;
}

/** What a write computes from the files as read: a new value per file (null: leave it). */
export interface ProgressSwap<T> {
  next: (Progress | null)[];
  result: T;
}

function readFile(
  paths: StatePaths,
  file: ProgressFile,
): ParsedFile<Progress> & { text: string | null } {
  if (file.agent === null) return readProgress(paths);
  const read = readAgentProgress(paths, file.agent);
  if (read.text !== null || file.template === undefined) return read;
  return {
    value: undefined,
    located: parseYaml(file.template, displayPath(paths, file.path)),
    problems: [],
    warnings: [],
    text: null,
  };
}

// A file changed on disk between read and write (a hand edit) runs `compute` again on it.
/** Compare-and-swap write of `files` under the held lock: `compute` gives the validated values. */
export async function swapProgress<T>(
  paths: StatePaths,
  files: readonly ProgressFile[],
  compute: (current: (Progress | undefined)[]) => ProgressSwap<T> | Promise<ProgressSwap<T>>,
): Promise<ProgressSwap<T>> {
  for (let attempt = 1; ; attempt++) {
    const reads = files.map((file) => readFile(paths, file));
    const current = reads.map((read) => (read.text === null ? undefined : valueOrThrow(read)));
    const swap = await compute(current);
    const writes = files.flatMap((file, i) => {
      const value = swap.next[i];
      if (!value) return [];
      const read = reads[i]!;
      const text = read.text ?? file.template ?? '';
      return [
        { file, before: read.text, ...serializeProgress({ ...read, text }, value, file.agent) },
      ];
    });
    if (writes.some((w) => currentText(w.file.path) !== w.before)) {
      if (attempt >= MAX_CAS_ATTEMPTS)
        throw new ConflictError('progress.yaml keeps changing while being updated', {
          hint: 'stop the other writer and retry',
        });
      continue;
    }
    for (const write of writes) {
      mkdirSync(dirname(write.file.path), { recursive: true });
      writeFileAtomic(write.file.path, write.text);
      if (write.file.agent === null) rememberProgress(paths, write.text, write.value);
    }
    return swap;
  }
}

function currentText(path: string): string | null {
  if (!existsSync(path)) return null;
  return readStateText(path, { display: path, restoreHint: '' });
}

// The values are redacted before they reach the document; a hand-written comment may hold a
// secret too, and the file is committed.
function redactComments(doc: Document): void {
  const clean = (text: string | null | undefined) =>
    text ? redactSecrets(text).text : (text ?? undefined);
  doc.commentBefore = clean(doc.commentBefore) ?? null;
  doc.comment = clean(doc.comment) ?? null;
  visit(doc, {
    Node(_, node) {
      if (node.commentBefore) node.commentBefore = clean(node.commentBefore);
      if (node.comment) node.comment = clean(node.comment);
    },
  });
}

// Applies the new value to the parsed document (keeping comments) and refuses to produce a file
// that would not validate.
function serializeProgress(
  read: ParsedFile<Progress> & { text: string },
  next: Progress,
  agent: string | null,
): { text: string; value: Progress } {
  const located = read.located!;
  syncDocument(located.doc, next);
  redactComments(located.doc);
  const value = located.doc.toJS() as Progress;
  const problems = checkProgress(value, located, agent);
  const first = problems[0];
  const file = agent === null ? 'progress.yaml' : located.display;
  if (first) {
    throw new InvalidStateError(`the change would make ${file} invalid: ${first.message}`, {
      hint: first.hint,
      details: problems.map((p) => ({ at: formatLocation(p.location), message: p.message })),
    });
  }
  const text = located.doc.toString(detectYamlStyle(read.text));
  // A writer never produces what its readers refuse.
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_STATE_FILE_BYTES)
    throw new InvalidStateError(
      `the change would make ${file} ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the 1 MiB every reader accepts`,
      {
        hint: 'keep bulky text in evidence or .agent/artifacts/; shorten notes, or remove done items',
      },
    );
  return { text, value };
}

/** Sets the goal anchor in goals.md, rewriting only that paragraph. Returns whether it changed. */
export async function setGoal(
  anchor: string,
  options: LockWait & Pick<BaseOptions, 'cwd'> = {},
): Promise<{ changed: boolean; goals: Goals; warnings: Warning[] }> {
  const paths = findRoot(options.cwd);
  return withStateLock(paths, () => setGoalLocked(paths, anchor), options);
}

/** setGoal for a caller that already holds the state lock (to write more files in the same step). */
export function setGoalLocked(
  paths: StatePaths,
  anchor: string,
): { changed: boolean; goals: Goals; warnings: Warning[] } {
  const { text } = readGoals(paths);
  const next = setGoalAnchor(text, redactSecrets(anchor).text);
  if (next !== text) writeFileAtomic(paths.goals, next);
  const parsed = parseGoals(next, displayPath(paths, paths.goals));
  return { changed: next !== text, ...parsed };
}
