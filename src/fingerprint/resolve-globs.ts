// Resolving globs (marker --files, config key_files) to the files that exist: against git's own
// listing inside a work tree (never a gitignore-aware walk of the whole tree, DESIGN §9), against
// a pruned walk outside git. A plain path is looked up directly, without listing anything.
import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type picomatchType from 'picomatch';
import { listRepoFiles } from '../git/list-files.js';
import { isAgentPath, isGitPath, staysInside } from '../state/repo-path.js';
import { walkFiles } from './walk.js';

// picomatch costs ~10 ms to load; plain paths (the usual key files) do not need it.
const requireCjs = createRequire(import.meta.url);
let picomatchCache: typeof picomatchType | undefined;
function picomatch(): typeof picomatchType {
  return (picomatchCache ??= requireCjs('picomatch') as typeof picomatchType);
}

// What makes a glob: wildcards, classes, braces, or an extglob such as `!(x)` / `@(a|b)`.
const GLOB_CHARS = /[*?[\]{}]|[!+@]\(/;

export interface ResolvedGlobs {
  /** Existing files matched by any glob, root-relative POSIX paths, sorted. */
  files: string[];
  /** The globs that matched no file. */
  unmatched: string[];
}

export interface ResolveOptions {
  /** Whether the root is inside a git work tree (then git lists the candidates). */
  git: boolean;
  env?: NodeJS.ProcessEnv;
}

function kindOf(root: string, path: string): 'file' | 'dir' | null {
  try {
    return lstatSync(join(root, path)).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/** Resolves root-relative globs (see toRepoGlob) to existing files, excluding `.agent/`. */
export function resolveGlobs(
  root: string,
  globs: readonly string[],
  options: ResolveOptions,
): ResolvedGlobs {
  const found = new Set<string>();
  const unmatched: string[] = [];
  const patterns: { glob: string; match: (path: string) => boolean; hits: number }[] = [];
  const bases = new Set<string>();
  for (const raw of globs) {
    const glob = raw === '' ? '**' : raw;
    if (!GLOB_CHARS.test(glob)) {
      const path = glob.replace(/\/+$/, '');
      const kind = kindOf(root, path);
      if (kind === 'file' && !isAgentPath(path) && !isGitPath(path) && staysInside(root, path)) {
        found.add(path);
        continue;
      }
      if (kind !== 'dir') {
        unmatched.push(raw);
        continue;
      }
      // A directory means everything below it.
      patterns.push({ glob: raw, match: picomatch()(`${path}/**`, { dot: true }), hits: 0 });
      bases.add(path);
      continue;
    }
    patterns.push({ glob: raw, match: picomatch()(glob, { dot: true }), hits: 0 });
    bases.add(picomatch().scan(glob).base);
  }
  if (patterns.length > 0) {
    for (const path of candidates(root, [...bases], options)) {
      if (isAgentPath(path)) continue;
      const matching = patterns.filter((pattern) => pattern.match(path));
      // git still lists a tracked file deleted from the work tree: only what exists counts.
      if (matching.length === 0 || kindOf(root, path) === null) continue;
      for (const pattern of matching) pattern.hits++;
      found.add(path);
    }
    for (const pattern of patterns) if (pattern.hits === 0) unmatched.push(pattern.glob);
  }
  return { files: [...found].sort(), unmatched };
}

// The files that could match: git's tracked + untracked-not-ignored files below the bases, or a
// walk of the bases outside git (refusing a base that leads out of the root through a symlink).
function candidates(root: string, bases: string[], options: ResolveOptions): string[] {
  if (options.git) return listRepoFiles(root, bases, options.env);
  const files: string[] = [];
  const dirs = bases.includes('') ? [''] : bases;
  for (const dir of dirs) {
    if (dir !== '' && (kindOf(root, dir) !== 'dir' || !staysInside(root, `${dir}/x`))) continue;
    files.push(...walkFiles(root, dir === '' ? {} : { dir }).files);
  }
  return files;
}
