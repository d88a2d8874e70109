// Which of the files the agent touched are still changed the way `verify` sees it (I/O): dirty or
// untracked now, or different from what the last checkpoint recorded. A Forbidden change that was
// reverted (`git checkout -- path`) is none of these, so its signal stops where verify stops
// reporting it; `status`, the status line, MCP `status` and `verify` agree.
import { join } from 'node:path';
import { hashFile } from './hash-file.js';
import { readHead } from '../git/head.js';
import { changedPaths, pathsChangedBetween } from '../git/paths-status.js';
import type { Repo } from '../state/find-root.js';
import type { Fingerprint } from '../types.js';

/** Of `paths` (relative to the root), the ones still changed; outside git, all of them. */
export function stillChanged(
  repo: Repo,
  paths: readonly string[],
  recorded: Fingerprint | null,
  env?: NodeJS.ProcessEnv,
): Set<string> {
  if (paths.length === 0 || repo.gitRoot === null) return new Set(paths);
  const root = repo.paths.root;
  const changed = changedPaths(root, repo.gitRoot, paths, env);
  const clean = paths.filter((p) => !changed.has(p));
  if (clean.length === 0 || recorded === null) return changed;
  // Clean now means HEAD's content: changed since the checkpoint if it was dirty then and differs
  // now, or if the commits since the checkpoint changed it.
  for (const path of clean) {
    const was = recorded.dirty[path] ?? recorded.untracked[path];
    if (was !== undefined && hashFile(join(root, path)) !== was) changed.add(path);
  }
  const from = recorded.git?.head ?? null;
  const to = readHead(root, env);
  // An unknown commit: every path may have changed.
  if (from !== null && to !== null && from !== to)
    for (const path of pathsChangedBetween(root, from, to, env, clean) ?? clean) changed.add(path);
  return changed;
}
