// Matching repository paths against the Forbidden globs of goals.md. Shared by verify,
// checkpoint, the pre-commit hook, watch and the agent host hooks, so all enforce one rule.
import picomatch from 'picomatch';
import type { ForbiddenEntry } from '../types.js';

/** The environment variable with which the user lets Forbidden paths through (git and host hooks). */
export const ALLOW_FORBIDDEN_ENV = 'AGENT_STATE_ALLOW_FORBIDDEN';

/** A path that a Forbidden entry covers. */
export interface ForbiddenHit {
  /** POSIX path relative to the repository root. */
  path: string;
  /** The glob that matched. */
  glob: string;
  /** The whole Forbidden entry, as written (the rule to show the user). */
  rule: string;
}

/** Tests one repository-relative POSIX path; null when no Forbidden glob covers it. */
export type ForbiddenMatcher = (path: string) => ForbiddenHit | null;

// `src/storage` and `src/storage/` mean the directory and everything in it; a glob without a
// slash (`*.pem`) matches a file name at any depth, as in .gitignore.
function patternsFor(glob: string): string[] {
  const trimmed = glob.replace(/^\.\//, '').replace(/^\/+/, '');
  const base = trimmed.replace(/\/+$/, '');
  if (base === '') return [];
  if (!/[*?[\]{}]/.test(base)) return [base, `${base}/**`];
  return trimmed.endsWith('/') ? [`${base}/**`] : [base];
}

/** Compiles the Forbidden entries into one matcher (compile once, test many paths). */
export function compileForbidden(entries: readonly ForbiddenEntry[]): ForbiddenMatcher {
  const tests: { glob: string; rule: string; match: (path: string) => boolean }[] = [];
  for (const entry of entries) {
    for (const glob of entry.globs) {
      const patterns = patternsFor(glob);
      if (patterns.length === 0) continue;
      const match = picomatch(patterns, { dot: true, basename: !glob.includes('/') });
      tests.push({ glob, rule: entry.text, match });
    }
  }
  return (path) => {
    const normalized = path.replace(/\\/g, '/').replace(/^\.\//, '');
    for (const test of tests)
      if (test.match(normalized)) return { path: normalized, glob: test.glob, rule: test.rule };
    return null;
  };
}

/** Every path of `paths` that a Forbidden glob covers, in input order. */
export function findForbidden(
  entries: readonly ForbiddenEntry[],
  paths: Iterable<string>,
): ForbiddenHit[] {
  const match = compileForbidden(entries);
  const hits: ForbiddenHit[] = [];
  for (const path of paths) {
    const hit = match(path);
    if (hit) hits.push(hit);
  }
  return hits;
}
