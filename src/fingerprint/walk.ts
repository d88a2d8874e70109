// Listing the files of a directory that is not a git work tree (no index to trust): a pruned
// walk that never enters version-control metadata, the agent state or installed dependencies.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** Directory names a walk never enters. */
export const WALK_SKIP = new Set(['.git', '.agent', 'node_modules', '.hg', '.svn']);

export interface WalkResult {
  /** POSIX paths relative to the walked root, in walk order (directories sorted by name). */
  files: string[];
  /** True when the walk stopped at `limit`. */
  truncated: boolean;
}

/** Lists the files (and symlinks) under `root`, or under `dir` (relative to root) when given. */
export function walkFiles(
  root: string,
  options: { dir?: string; limit?: number } = {},
): WalkResult {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const files: string[] = [];
  const stack: string[] = [options.dir ?? ''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirs: string[] = [];
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!WALK_SKIP.has(entry.name)) dirs.push(path);
      } else {
        if (files.length >= limit) return { files, truncated: true };
        files.push(path);
      }
    }
    // Popped in name order: a deterministic walk, so a truncated listing is stable.
    for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]!);
  }
  return { files, truncated: false };
}
