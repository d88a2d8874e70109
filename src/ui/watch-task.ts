// Noticing a change of the Task Context within a fraction of a second: fs.watch on the state and
// log folders (atomic writes rename files: folders are watched, not files) and on git's HEAD and
// index, with a cheap stat poll behind it for file systems where fs.watch is silent and for
// folders created after the start.
import { watch, statSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { gitAbsoluteDir } from '../git/git-hook-calls.js';
import type { Repo } from '../state/find-root.js';
import { orElse } from '../hosts/or-else.js';

/** How often the stat poll looks (ms). */
const POLL_MS = 400;

/** Stops watching. */
export type StopWatching = () => void;

function stamp(path: string): string {
  const st = orElse(() => statSync(path), null);
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
}

// Where HEAD and the index are: `.git`, or for a linked worktree the folder its `.git` file
// names (the main repository's .git/worktrees/NAME). Asked of git once, at the start.
const gitDirOf = (gitRoot: string) => orElse(() => gitAbsoluteDir(gitRoot), join(gitRoot, '.git'));

/** Calls `onChange` (often several times per change: debounce it) whenever the state may have moved. */
export function watchTask(repo: Repo, onChange: () => void): StopWatching {
  const { paths, gitRoot } = repo;
  const folders = [paths.agentDir, paths.stateDir, paths.evidenceDir, paths.logDir];
  const gitDir = gitRoot ? gitDirOf(gitRoot) : null;
  if (gitDir) folders.push(gitDir);
  const watchers = new Map<string, FSWatcher>();
  const ensure = () => {
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, { persistent: false }, () => onChange());
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        /* absent for now (or not watchable): the poll covers it */
      }
    }
  };
  ensure();
  const polled = [
    paths.progress,
    paths.goals,
    paths.config,
    paths.evidenceDir,
    join(paths.logDir, 'events.jsonl'),
    ...(gitDir ? [join(gitDir, 'HEAD'), join(gitDir, 'index')] : []),
  ];
  let last = polled.map(stamp).join('|');
  const timer = setInterval(() => {
    ensure();
    const now = polled.map(stamp).join('|');
    if (now !== last) {
      last = now;
      onChange();
    }
  }, POLL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
