// `watch`: chokidar (loaded only here) on .agent/, .git/HEAD, .git/index and the directories of
// the Forbidden globs. Changes are debounced per path and reported once the write has finished.
import { relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FSWatcher } from 'chokidar';
import { gitAbsoluteDir, trackedMatching } from '../git/git-hook-calls.js';
import { recordEvent } from '../events/append.js';
import { findRoot, locateRoot } from '../state/find-root.js';
import { caseInsensitive, compileForbidden, type ForbiddenMatcher } from '../state/forbidden.js';
import { readGoals } from '../state/store.js';
import type { StatePaths } from '../state/paths.js';
import type { BaseOptions } from '../types.js';
import { classifyChange, type WatchEvent } from './classify.js';

export type { WatchEvent } from './classify.js';
import { MAX_ANYWHERE_FILES, forbiddenTargets, pruneNested, watchPaths } from './targets.js';

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
    files = trackedMatching(
      gitRoot,
      anywhere.map((a) => a.pathspec),
      { env },
    );
    if (files.length > MAX_ANYWHERE_FILES) {
      notes.push(
        `${files.length} tracked files match ${anywhere.map((a) => a.glob).join(', ')}: watching the first ${MAX_ANYWHERE_FILES}`,
      );
      files = files.slice(0, MAX_ANYWHERE_FILES);
    }
    notes.push(
      `${anywhere.map((a) => a.glob).join(', ')} match at any depth: watching the tracked files that match (a new one elsewhere is caught by the pre-commit hook)`,
    );
  }
  const rel = pruneNested(
    [...dirs, ...files].filter((p) => p !== '.agent' && !p.startsWith('.agent/')),
  );
  return {
    matcher: compileForbidden(goals.forbidden, { nocase: caseInsensitive(paths.root) }),
    rel,
    notes,
  };
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

  const relOf = (absolute: string): string => {
    if (gitDir !== null && absolute.startsWith(gitDir + sep))
      return `.git/${absolute
        .slice(gitDir.length + 1)
        .split(sep)
        .join('/')}`;
    return relative(root, absolute).split(sep).join('/');
  };

  const report = (event: WatchEvent['event'], absolute: string) => {
    const rel = relOf(absolute);
    const change = classifyChange(event, rel, absolute, targets.matcher, now().toISOString());
    if (change === null) return;
    summary.changes++;
    if (change.kind === 'forbidden') summary.forbidden++;
    if (change.kind === 'git') summary.git++;
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
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    }, COALESCE_MS);
    pending.set(absolute, { timer, event });
  });
  watcher.on('error', (error) =>
    options.onError?.(error instanceof Error ? error : new Error(String(error))),
  );

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
