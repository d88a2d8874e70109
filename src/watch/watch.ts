// `watch`: chokidar (loaded only here) on .agent/, .git/HEAD, .git/index and the directories of
// the Forbidden globs, never the whole tree (a chokidar watch of 100k files takes seconds and most
// of a gigabyte). Changes are debounced per path and reported once the write has finished, as a
// Forbidden path (with its rule), a state file (valid or not, with the problems), or git.
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FSWatcher } from 'chokidar';
import picomatch from 'picomatch';
import { formatLocation } from '../errors.js';
import { gitAbsoluteDir, trackedMatching } from '../git/git-hook-calls.js';
import { recordEvent } from '../events/append.js';
import { findRoot, locateRoot } from '../state/find-root.js';
import { caseInsensitive, compileForbidden, type ForbiddenMatcher } from '../state/forbidden.js';
import { readGoals } from '../state/store.js';
import type { StatePaths } from '../state/paths.js';
import type { BaseOptions, ForbiddenEntry } from '../types.js';
import { stateFileKind } from '../verify/staged-check.js';
import { checkStagedStateFiles } from '../verify/staged-state.js';

/** One change `watch` reports. */
export interface WatchEvent {
  /** ISO 8601 UTC. */
  at: string;
  event: 'add' | 'change' | 'unlink';
  kind: 'forbidden' | 'state' | 'git';
  /** POSIX path relative to the root (`.git/HEAD` and `.git/index` for git). */
  path: string;
  /** For forbidden: the Forbidden entry and the glob that matched. */
  rule: string | null;
  glob: string | null;
  /** For state files: whether the new content validates (null for goals.md warnings only, or a deletion). */
  valid: boolean | null;
  problems: { at: string; message: string; hint: string }[];
  warnings: string[];
  /** For .git/HEAD: the branch now checked out (null when detached). */
  branch?: string | null;
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** Reads HEAD the way git writes it: `ref: refs/heads/<branch>` or a detached commit. */
export function branchOfHead(text: string): string | null {
  const match = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(text);
  return match ? match[1]! : null;
}

/**
 * Classifies a change at `rel` (relative to the root, POSIX), or returns null when the path is
 * none of ours (a file in a watched directory that no Forbidden glob covers).
 */
export function classifyChange(
  event: WatchEvent['event'],
  rel: string,
  absolute: string,
  matcher: ForbiddenMatcher,
  at: string,
): WatchEvent | null {
  const none = { rule: null, glob: null, valid: null } as const;
  const base = { at, event, path: rel, ...none, problems: [], warnings: [] };
  if (rel === '.git/HEAD') {
    const text = readBytes(absolute)?.toString('utf8') ?? '';
    return { ...base, kind: 'git', branch: branchOfHead(text) };
  }
  if (rel === '.git/index') return { ...base, kind: 'git' };
  if (rel.startsWith('.agent/')) {
    const inAgent = rel.slice('.agent/'.length);
    const kind = stateFileKind(inAgent);
    if (kind === 'local' || kind === 'other') return null;
    if (event === 'unlink') return { ...base, kind: 'state' };
    const bytes = readBytes(absolute);
    if (bytes === null) return null; // gone again before we read it
    const findings = checkStagedStateFiles([{ path: rel, inAgent, bytes }]);
    const problems = findings
      .filter((f) => f.severity === 'block')
      .map((f) => ({
        at: formatLocation({ file: f.path, line: f.line, column: f.column }),
        message: f.message,
        hint: f.hint,
      }));
    const warnings = findings.filter((f) => f.severity !== 'block').map((f) => f.message);
    return { ...base, kind: 'state', valid: problems.length === 0, problems, warnings };
  }
  const hit = matcher(rel);
  if (!hit) return null;
  return { ...base, kind: 'forbidden', rule: hit.rule, glob: hit.glob };
}

/** Where the Forbidden globs point. */
export interface ForbiddenTargets {
  /** Directories (or single paths) relative to the root: the static part of each glob. */
  dirs: string[];
  /** Globs that match at any depth (`*.pem`, `**\/secret.key`): git pathspecs for their files. */
  anywhere: { glob: string; pathspec: string }[];
}

/** Splits the Forbidden globs into the directories to watch and the globs that match anywhere. */
export function forbiddenTargets(entries: readonly ForbiddenEntry[]): ForbiddenTargets {
  const dirs = new Set<string>();
  const anywhere: ForbiddenTargets['anywhere'] = [];
  for (const entry of entries)
    for (const glob of entry.globs) {
      const trimmed = glob.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
      if (trimmed === '') continue;
      // Without a slash a glob names a file at any depth (forbidden.ts matches it that way).
      if (!glob.replace(/\/+$/, '').includes('/')) {
        anywhere.push({ glob, pathspec: `:(glob)**/${trimmed}` });
        if (!/[*?[\]{}]/.test(trimmed)) dirs.add(trimmed);
        continue;
      }
      const base = picomatch.scan(trimmed).base.replace(/\/+$/, '');
      if (base === '' || base.startsWith('..'))
        anywhere.push({ glob, pathspec: `:(glob)${trimmed}` });
      else dirs.add(base);
    }
  return { dirs: [...dirs].sort(), anywhere };
}

/** Most files of "anywhere" globs that get a watch of their own (each costs a file handle). */
export const MAX_ANYWHERE_FILES = 500;

/** Drops paths already covered by a watched ancestor (chokidar watches directories recursively). */
export function pruneNested(relPaths: readonly string[]): string[] {
  const sorted = [...new Set(relPaths)].sort();
  const kept: string[] = [];
  for (const path of sorted)
    if (!kept.some((dir) => path === dir || path.startsWith(`${dir}/`))) kept.push(path);
  return kept;
}

/** The absolute paths for chokidar. */
export function watchPaths(root: string, gitDir: string | null, rel: readonly string[]): string[] {
  const paths = [join(root, '.agent'), ...pruneNested(rel).map((p) => join(root, p))];
  if (gitDir !== null) paths.push(join(gitDir, 'HEAD'), join(gitDir, 'index'));
  return paths;
}

export interface WatchOptions extends BaseOptions {
  /** Called once per (debounced) change. */
  onEvent(event: WatchEvent): void;
  onError?(error: Error): void;
  /** How long a file must stay unchanged before it is read, in ms. Default 100. */
  settleMs?: number;
  /** Record each change to a Forbidden path as a file.modified event in the event log. Default true. */
  record?: boolean;
}

/** What is watched, once the watcher is ready. */
export interface WatchReady {
  /** Watched paths, relative to the root where they are inside it. */
  paths: string[];
  /** Milliseconds from the call to ready. */
  ms: number;
  notes: string[];
}

/** Counts since the start. */
export interface WatchSummary {
  changes: number;
  forbidden: number;
  invalid: number;
  git: number;
  seconds: number;
}

export interface WatchHandle {
  ready: Promise<WatchReady>;
  /** Stops watching and returns the counts. */
  close(): Promise<WatchSummary>;
}

// Machine-local files under .agent/ (and the facts log this watcher writes) are never reported.
const IGNORED_IN_AGENT = /[\\/]\.agent[\\/](log|artifacts)([\\/]|$)|[\\/]\.agent[\\/]lock$|\.tmp$/;
// Several events for one path within this window (an editor's save, git's index rewrite) are one.
const COALESCE_MS = 40;

interface Targets {
  matcher: ForbiddenMatcher;
  rel: string[];
  notes: string[];
}

function targetsFor(paths: StatePaths, gitRoot: string | null, env: NodeJS.ProcessEnv): Targets {
  const { goals } = readGoals(paths);
  const { dirs, anywhere } = forbiddenTargets(goals.forbidden);
  const notes: string[] = [];
  let files: string[] = [];
  if (anywhere.length > 0 && gitRoot !== null) {
    const globs = anywhere.map((a) => a.glob).join(', ');
    const pathspecs = anywhere.map((a) => a.pathspec);
    files = trackedMatching(gitRoot, pathspecs, { env });
    if (files.length > MAX_ANYWHERE_FILES) {
      notes.push(
        `${files.length} tracked files match ${globs}: watching the first ${MAX_ANYWHERE_FILES}`,
      );
      files = files.slice(0, MAX_ANYWHERE_FILES);
    }
    notes.push(
      `${globs} match at any depth: watching the tracked files that match (a new one elsewhere is caught by the pre-commit hook)`,
    );
  }
  const rel = pruneNested(
    [...dirs, ...files].filter((p) => p !== '.agent' && !p.startsWith('.agent/')),
  );
  const matcher = compileForbidden(goals.forbidden, { nocase: caseInsensitive(paths.root) });
  return { matcher, rel, notes };
}

/** Starts watching the task of `options.cwd`; throws NotInitializedError without .agent/. */
export async function watchState(options: WatchOptions): Promise<WatchHandle> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const paths = findRoot(options.cwd);
  const root = paths.root;
  const gitRoot = locateRoot(root).gitRoot;
  const gitDir = gitRoot === null ? null : gitAbsoluteDir(gitRoot, { env });
  let targets = targetsFor(paths, gitRoot, env);
  const summary = { changes: 0, forbidden: 0, invalid: 0, git: 0 };
  // Event-log appends in flight: close() waits for them, so Ctrl-C loses none.
  const recording = new Set<Promise<void>>();
  const settle = options.settleMs ?? 100;

  const { watch } = await import('chokidar');
  const watcher: FSWatcher = watch(watchPaths(root, gitDir, targets.rel), {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (path: string) => IGNORED_IN_AGENT.test(path),
    awaitWriteFinish: {
      stabilityThreshold: settle,
      pollInterval: Math.max(10, Math.round(settle / 4)),
    },
  });

  const posix = (path: string) => path.split(sep).join('/');
  const relOf = (absolute: string): string =>
    gitDir !== null && absolute.startsWith(gitDir + sep)
      ? `.git/${posix(absolute.slice(gitDir.length + 1))}`
      : posix(relative(root, absolute));
  const fail = (error: unknown) =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)));

  const report = (event: WatchEvent['event'], absolute: string) => {
    const rel = relOf(absolute);
    const change = classifyChange(event, rel, absolute, targets.matcher, now().toISOString());
    if (change === null) return;
    summary.changes++;
    if (change.kind !== 'state') summary[change.kind]++;
    if (change.valid === false) summary.invalid++;
    if (rel === '.agent/state/goals.md' && event !== 'unlink') retarget();
    // Only Forbidden paths are facts about the work: changes under .agent/ are the tool's own.
    if (options.record !== false && change.kind === 'forbidden') {
      const written = recordEvent(
        paths,
        { type: 'file.modified', at: change.at, path: rel, tool: 'watch' },
        { env, now },
      ).then(({ warning }) => {
        if (warning) options.onError?.(new Error(warning.message));
      });
      recording.add(written);
      void written.finally(() => recording.delete(written));
    }
    options.onEvent(change);
  };

  // goals.md changed: the Forbidden globs (and so the watched directories) may have too.
  const retarget = () => {
    const before = new Set(targets.rel);
    targets = targetsFor(paths, gitRoot, env);
    const after = new Set(targets.rel);
    const added = [...after].filter((p) => !before.has(p));
    const removed = [...before].filter((p) => !after.has(p));
    if (added.length) watcher.add(added.map((p) => `${root}/${p}`));
    if (removed.length) watcher.unwatch(removed.map((p) => `${root}/${p}`));
  };

  const pending = new Map<string, { timer: NodeJS.Timeout; event: WatchEvent['event'] }>();
  watcher.on('all', (name, absolute) => {
    if (name !== 'add' && name !== 'change' && name !== 'unlink') return;
    const previous = pending.get(absolute);
    if (previous) clearTimeout(previous.timer);
    const event = previous?.event === 'add' && name === 'change' ? 'add' : name;
    const timer = setTimeout(() => {
      pending.delete(absolute);
      try {
        report(event, absolute);
      } catch (error) {
        fail(error);
      }
    }, COALESCE_MS);
    pending.set(absolute, { timer, event });
  });
  watcher.on('error', fail);

  const ready = new Promise<WatchReady>((resolve) => {
    watcher.once('ready', () =>
      resolve({
        paths: watchPaths(root, gitDir, targets.rel).map(relOf),
        ms: Math.round(performance.now() - started),
        notes: targets.notes,
      }),
    );
  });

  return {
    ready,
    async close() {
      for (const { timer } of pending.values()) clearTimeout(timer);
      pending.clear();
      await watcher.close();
      await Promise.all(recording);
      return { ...summary, seconds: Math.round((performance.now() - started) / 1000) };
    },
  };
}
