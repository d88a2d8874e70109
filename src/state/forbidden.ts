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

/** The characters that make a Forbidden entry (or a shell word) a glob. */
export const GLOB_CHARS = /[*?[\]{}]/;

// `src/storage` and `src/storage/` mean the directory and everything in it; a glob without a
// slash (`*.pem`) matches a file name at any depth, as in .gitignore.
function patternsFor(glob: string): string[] {
  const trimmed = glob.replace(/^\.\//, '').replace(/^\/+/, '');
  const base = trimmed.replace(/\/+$/, '');
  if (base === '') return [];
  if (!GLOB_CHARS.test(base)) return [base, `${base}/**`];
  return trimmed.endsWith('/') ? [`${base}/**`] : [base];
}

/** One matcher for the Forbidden entries; `nocase` where the disk ignores case (caseInsensitive) */
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

/** Whether the disk at `root` ignores case (macOS, Windows): `.AGENT` finds `.agent`. */
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
  return [...paths].flatMap((path) => match(path) ?? []);
}

/** The globs of `before` that `after` no longer has: the Forbidden rules an edit lifts. */
export function liftedGlobs(
  before: readonly ForbiddenEntry[],
  after: readonly ForbiddenEntry[],
): string[] {
  const kept = new Set(after.flatMap((e) => e.globs));
  return [...new Set(before.flatMap((e) => e.globs))].filter((g) => !kept.has(g));
}
