// What `watch` watches: .agent/, HEAD and index, and the directories of the Forbidden globs —
// never the whole tree (a chokidar watch of 100k files takes seconds and most of a gigabyte).
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { ForbiddenEntry } from '../types.js';

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
