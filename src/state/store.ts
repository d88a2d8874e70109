// The state store: loading every state file with its problems, and mutating progress.yaml under
// the lock with a revision compare-and-swap. A file that does not parse or validate is never
// rewritten.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { visit, type Document } from 'yaml';
import { resolveAgent } from '../agents/agent-name.js';
import { applyClaimRules, changesStatus, touchesClaimedItem } from '../agents/claims.js';
import { hasLinkedWorktrees } from '../git/worktrees.js';
import { emptyOwn, overlayProgress, splitProgress } from '../agents/own-state.js';
import { ConflictError, InvalidStateError, formatLocation } from '../errors.js';
import type { BaseOptions, Config, Goals, Progress, Warning } from '../types.js';
import { redactSecrets } from '../evidence/redact.js';
import { writeFileAtomic, TEMP_SUFFIX } from './atomic-write.js';
import { parseConfig, resolveConfig } from './config.js';
import { findRoot } from './find-root.js';
import { recordNextAction } from './next-action-history.js';
import { parseGoals, setGoalAnchor } from './goals.js';
import { acquireLock, type LockOptions } from './lock.js';
import { processAlive } from './process-alive.js';
import { valueOrThrow, type ParsedFile } from './parsed-file.js';
import { agentProgressPath, displayPath, type StatePaths } from './paths.js';
import { checkProgress, parseProgress } from './progress.js';
import { cachedProgress, rememberProgress } from './progress-cache.js';
import { MAX_STATE_FILE_BYTES, readStateText } from './read-text.js';
import { syncDocument } from './yaml-sync.js';
import { settleVolatile } from '../recovery/settle.js';
import { detectYamlStyle, parseYaml, type LocatedDocument } from './yaml-doc.js';

/** Everything a command needs to know about the task, read from disk. */
export interface LoadedState {
  paths: StatePaths;
  config: Config;
  goals: Goals;
  /** What the acting agent sees: progress.yaml, with a named agent's own keys from its own file. */
  progress: Progress;
  /** The acting agent's name; null for the default agent. */
  agent: string | null;
  /** Non-fatal findings (goals.md without an anchor, an empty section, ...). */
  warnings: Warning[];
}

function restoreHint(paths: StatePaths, file: string): string {
  return `restore it from git (\`git checkout -- ${displayPath(paths, file)}\`) or fix it by hand; see docs/protocol.md`;
}

/**
 * Reads and parses progress.yaml without throwing for bad content (for `validate`). A large file
 * read before comes from the parse cache; its YAML document (for a rewrite) is parsed on first use.
 */
export function readProgress(paths: StatePaths): ParsedFile<Progress> & { text: string } {
  const display = displayPath(paths, paths.progress);
  const text = readStateText(paths.progress, {
    display,
    restoreHint: restoreHint(paths, paths.progress),
  });
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
  if (parsed.value) rememberProgress(paths, text, parsed.value);
  return { ...parsed, text };
}

/** Reads a named agent's own file; a missing file is an empty own state (and `text` null). */
export function readAgentProgress(
  paths: StatePaths,
  agent: string,
): ParsedFile<Progress> & { text: string | null } {
  const path = agentProgressPath(paths, agent);
  if (!existsSync(path)) return { value: emptyOwn(agent), problems: [], warnings: [], text: null };
  const display = displayPath(paths, path);
  const text = readStateText(path, {
    display,
    restoreHint: `restore it from git (\`git checkout -- ${display}\`) or delete it (the agent starts afresh); see docs/multi-agent.md`,
  });
  return { ...parseProgress(text, display, agent), text };
}

/**
 * The progress `agent` sees: progress.yaml for the default agent (null); for a named agent, the
 * shared file with its own keys laid over from its own file. Problems of either file are listed.
 */
export function readProgressFor(paths: StatePaths, agent: string | null): ParsedFile<Progress> {
  const shared = readProgress(paths);
  if (agent === null) return shared;
  const own = readAgentProgress(paths, agent);
  const problems = [...shared.problems, ...own.problems];
  const value =
    problems.length || !shared.value || !own.value
      ? undefined
      : overlayProgress(shared.value, own.value);
  return { value, problems, warnings: [] };
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
  const agent = resolveAgent(options);
  const config = valueOrThrow(readConfig(paths));
  const goals = readGoals(paths);
  const progress = valueOrThrow(readProgressFor(paths, agent));
  return { paths, config, goals: goals.goals, progress, agent, warnings: goals.warnings };
}

export interface UpdateOptions extends BaseOptions, Pick<LockOptions, 'timeoutMs' | 'staleMs'> {
  /**
   * Fail with ConflictError unless the stored revision (of the shared progress.yaml) is exactly
   * this (optimistic concurrency).
   */
  expectRevision?: number;
  /** Change the status of an item another agent holds a live claim on (`--force`). */
  force?: boolean;
}

export interface UpdateResult<T> {
  /** The progress as stored after the update. */
  progress: Progress;
  /** False when the mutator changed nothing (then nothing was written). */
  changed: boolean;
  /** What the mutator returned. */
  result: T;
}

/**
 * Throws the first problem of config.yaml or goals.md (InvalidStateError, exit 2). Every writer
 * calls it under the lock, so no command records progress against settings or goals that the
 * readers (`status`, `boot`, `verify`) refuse.
 */
export function assertWritableState(paths: StatePaths): void {
  valueOrThrow(readConfig(paths));
  readGoals(paths);
}

/**
 * Runs `fn` holding the state lock, once config.yaml and goals.md are known to be valid; also
 * sweeps temp files that crashed writers left behind.
 */
export async function withStateLock<T>(
  paths: StatePaths,
  fn: () => T | Promise<T>,
  options: UpdateOptions = {},
): Promise<T> {
  const lock = await acquireLock(paths.lock, {
    queueDir: join(paths.logDir, 'lock-queue'),
    timeoutMs: options.timeoutMs,
    staleMs: options.staleMs,
    now: options.now,
    display: displayPath(paths, paths.lock),
  });
  try {
    sweepTempFiles(paths);
    assertWritableState(paths);
    return await fn();
  } finally {
    lock.release();
  }
}

// Every writer of the state files holds the lock, so a temp file seen there while holding it
// belongs to a dead writer. Raw artifacts (a checkpoint's test log, `evidence add --raw`) and the
// log's caches are written outside the lock: their temp files are swept once the process named
// in them (tempPathFor puts the pid in the name) is gone.
function sweepTempFiles(paths: StatePaths): void {
  let agents: string[] = [];
  try {
    agents = readdirSync(paths.agentsDir).map((name) => join(paths.agentsDir, name));
  } catch {
    // no named agent yet
  }
  for (const dir of [
    paths.agentDir,
    paths.stateDir,
    paths.evidenceDir,
    paths.markersDir,
    ...agents,
  ])
    for (const name of tempNames(dir)) rmSync(join(dir, name), { force: true });
  for (const dir of [paths.artifactsDir, paths.logDir])
    for (const name of tempNames(dir)) {
      const pid = Number(/\.(\d+)\.[^.]+\.tmp$/.exec(name)?.[1]);
      if (Number.isInteger(pid) && pid > 0 && !processAlive(pid))
        rmSync(join(dir, name), { force: true });
    }
}

function tempNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(TEMP_SUFFIX));
  } catch {
    return [];
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
  options: Pick<UpdateOptions, 'expectRevision' | 'now' | 'agent' | 'env' | 'force'> = {},
): Promise<UpdateResult<T>> {
  const agent = resolveAgent(options);
  const clock = options.now ?? (() => new Date());
  for (let attempt = 1; ; attempt++) {
    const read = readProgress(paths);
    const shared = valueOrThrow(read);
    if (options.expectRevision !== undefined && shared.revision !== options.expectRevision) {
      throw new ConflictError(
        `progress.yaml is at revision ${shared.revision}, not ${options.expectRevision}: it changed since it was read`,
        { hint: 'read the state again and reapply the change' },
      );
    }
    const ownRead = agent === null ? null : readAgentProgress(paths, agent);
    const own = ownRead === null ? null : valueOrThrow(ownRead);
    const current = own === null ? shared : overlayProgress(shared, own);
    const draft = structuredClone(current);
    const result = await mutator(draft);
    const now = clock();
    // Done here, once, so that every writer (next, checkpoint, library callers) keeps them.
    recordNextAction(current, draft, now);
    // progress.yaml is committed: no secret goes into it, whichever writer brought it; nor into
    // what the writer reports (`memory add` prints the note it added).
    redactInPlace(draft);
    redactInPlace(result);
    // Claims in other worktrees matter only when there are other worktrees (read without git).
    const foreign =
      changesStatus(current, draft) && hasLinkedWorktrees(paths.root)
        ? (await import('../agents/agents-overview.js')).foreignClaims(
            paths,
            agent,
            now,
            options.env,
          )
        : undefined;
    if (touchesClaimedItem(current, draft) || (foreign && foreign.size > 0)) {
      const expireMinutes = valueOrThrow(readConfig(paths)).agents.claim_expire_minutes;
      applyClaimRules(current, draft, agent, { now, expireMinutes }, options.force, foreign);
    }
    if (isDeepStrictEqual(draft, current)) return { progress: current, changed: false, result };
    // The counters of 0.1.0 move to the local record; reminders a boot showed leave the file.
    const settled = settleVolatile(paths, draft, agent);
    const writes: { path: string; text: string; value: Progress; before: string | null }[] = [];
    let next: Progress;
    if (own === null || ownRead === null) {
      draft.revision = shared.revision + 1;
      writes.push({
        path: paths.progress,
        ...serializeProgress(read, draft, null),
        before: read.text,
      });
      next = draft;
    } else {
      // Every write of a named agent renews its last_seen, which the other agents' boots show.
      const split = splitProgress(draft, shared, own, now.toISOString());
      if (!isDeepStrictEqual(split.shared, shared)) {
        split.shared.revision = shared.revision + 1;
        writes.push({
          path: paths.progress,
          ...serializeProgress(read, split.shared, null),
          before: read.text,
        });
      }
      split.own.revision = own.revision + 1;
      const ownText = ownRead.text ?? newOwnText(agent!);
      const ownDisplay = displayPath(paths, agentProgressPath(paths, agent!));
      const ownParsed = ownRead.text === null ? parseOwnTemplate(ownText, ownDisplay) : ownRead;
      writes.unshift({
        path: agentProgressPath(paths, agent!),
        ...serializeProgress({ ...ownParsed, text: ownText }, split.own, agent),
        before: ownRead.text,
      });
      next = overlayProgress(split.shared, split.own);
    }
    // A hand edit between read and write: replay the mutation on what is there now.
    const moved = writes.some((w) => currentText(w.path) !== w.before);
    if (moved) {
      if (attempt >= MAX_CAS_ATTEMPTS)
        throw new ConflictError('progress.yaml keeps changing while being updated', {
          hint: 'stop the other writer and retry',
        });
      continue;
    }
    for (const write of writes) {
      mkdirSync(dirname(write.path), { recursive: true });
      writeFileAtomic(write.path, write.text);
      if (write.path === paths.progress) rememberProgress(paths, write.text, write.value);
    }
    settled.written();
    return { progress: next, changed: true, result };
  }
}

function currentText(path: string): string | null {
  if (!existsSync(path)) return null;
  return readStateText(path, { display: path, restoreHint: '' });
}

// The first text of an agent's own file: the schema line, what the file is, whose it is.
function newOwnText(agent: string): string {
  return [
    '# yaml-language-server: $schema=https://unpkg.com/agent-state/schemas/progress.schema.json',
    `# The own state of agent ${agent}: its next action, stage, current step, working memory,`,
    '# reminders, stamp and fingerprint. Plan, markers and durable memory are shared, in',
    '# ../../progress.yaml (docs/multi-agent.md).',
    'version: 1',
    'revision: 0',
    `agent: ${agent}`,
    '',
  ].join('\n');
}

function parseOwnTemplate(text: string, display: string): ParsedFile<Progress> {
  const located = parseYaml(text, display);
  return { value: undefined, located, problems: [], warnings: [] };
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
  if (first) {
    const file = agent === null ? 'progress.yaml' : located.display;
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
      `the change would make ${agent === null ? 'progress.yaml' : located.display} ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the 1 MiB every reader accepts`,
      {
        hint: 'keep bulky text in evidence or .agent/artifacts/; shorten notes, or remove done items',
      },
    );
  return { text, value };
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
