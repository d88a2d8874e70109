// Matching repository paths against the Forbidden globs of goals.md. Shared by verify,
// checkpoint, the pre-commit hook, watch and the agent host hooks, so all enforce one rule.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { ForbiddenEntry } from '../types.js';
import { AGENT_DIR } from './paths.js';

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

/**
 * Compiles the Forbidden entries into one matcher (compile once, test many paths). `nocase`: the
 * file system ignores case (see caseInsensitive), so `SRC/Storage/x.js` is `src/storage/x.js`.
 */
export function compileForbidden(
  entries: readonly ForbiddenEntry[],
  options: { nocase?: boolean } = {},
): ForbiddenMatcher {
  const tests: { glob: string; rule: string; match: (path: string) => boolean }[] = [];
  for (const entry of entries) {
    for (const glob of entry.globs) {
      const patterns = patternsFor(glob);
      if (patterns.length === 0) continue;
      // `s`: picomatch builds `*` and `**` from `.`, which would stop at a newline in a name.
      const flags = options.nocase ? 'is' : 's';
      const match = picomatch(patterns, { dot: true, basename: !glob.includes('/'), flags });
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

const probed = new Map<string, boolean>();

/**
 * Whether the file system at `root` ignores case (macOS, Windows): probed once per root by
 * asking for `.AGENT` and getting `.agent`. There `SRC/storage/x.js` writes `src/storage/x.js`.
 */
export function caseInsensitive(root: string): boolean {
  let answer = probed.get(root);
  if (answer === undefined) {
    const own = statSync(join(root, AGENT_DIR), { throwIfNoEntry: false });
    const upper = statSync(join(root, AGENT_DIR.toUpperCase()), { throwIfNoEntry: false });
    answer = own !== undefined && upper?.ino === own.ino && upper.dev === own.dev;
    probed.set(root, answer);
  }
  return answer;
}

/** Every path of `paths` that a Forbidden glob covers, in input order. */
export function findForbidden(
  entries: readonly ForbiddenEntry[],
  paths: Iterable<string>,
  options: { nocase?: boolean } = {},
): ForbiddenHit[] {
  const match = compileForbidden(entries, options);
  const hits: ForbiddenHit[] = [];
  for (const path of paths) {
    const hit = match(path);
    if (hit) hits.push(hit);
  }
  return hits;
}
