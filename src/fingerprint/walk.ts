// Listing the files of a directory that is not a git work tree (no index to trust): globby over
// it, never entering version-control metadata, the agent state or installed dependencies, and
// never with `gitignore: true` (reading every .gitignore of a large tree costs seconds). globby
// (with fast-glob and micromatch, a ninth of the CLI bundle) stays in node_modules and loads at
// the first walk: only a task outside git walks, and every other call starts faster without it.
import { createRequire } from 'node:module';
import type * as GlobbyModule from 'globby';

type Globby = typeof GlobbyModule;
const requireModule = createRequire(import.meta.url);
let globby: Globby | undefined;

/** Directory names a walk never enters. */
export const WALK_SKIP = new Set(['.git', '.agent', 'node_modules', '.hg', '.svn']);

const IGNORE = [...WALK_SKIP].map((name) => `**/${name}/**`);
// A directory name taken literally in a glob.
const globbyEscape = (path: string) => path.replace(/[*?[\]{}()!\\]/g, '\\$&');

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
  globby ??= requireModule('globby') as Globby;
  const entries = globby.globbySync(pattern, {
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
