// Listing the files of a directory that is not a git work tree (no index to trust): globby over
// it, never entering version-control metadata, the agent state or installed dependencies, and
// never with `gitignore: true` (reading every .gitignore of a large tree costs seconds).
import { globbySync } from 'globby';

/** Directory names a walk never enters. */
export const WALK_SKIP = new Set(['.git', '.agent', 'node_modules', '.hg', '.svn']);

const IGNORE = [...WALK_SKIP].map((name) => `**/${name}/**`);

export interface WalkResult {
  /** POSIX paths relative to the walked root, sorted. */
  files: string[];
  /** True when the listing was cut at `limit` (the first `limit` paths in sorted order). */
  truncated: boolean;
}

/** Lists the files (and symlinks, not followed) under `root`, or under `dir` (relative to root) when given. */
export function walkFiles(
  root: string,
  options: { dir?: string; limit?: number } = {},
): WalkResult {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const pattern = options.dir ? `${globbyEscape(options.dir)}/**` : '**';
  const entries = globbySync(pattern, {
    cwd: root,
    dot: true,
    ignore: IGNORE,
    // Symlinks are listed, not followed (a link to a directory would leave the tree or loop).
    onlyFiles: false,
    markDirectories: true,
    followSymbolicLinks: false,
    suppressErrors: true,
  });
  const files = entries.filter((path) => !path.endsWith('/')).sort();
  return files.length > limit
    ? { files: files.slice(0, limit), truncated: true }
    : { files, truncated: false };
}

// A directory name taken literally in a glob.
function globbyEscape(path: string): string {
  return path.replace(/[*?[\]{}()!\\]/g, '\\$&');
}
