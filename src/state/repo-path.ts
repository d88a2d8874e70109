// User-named paths and globs confined to the repository (DESIGN §8): resolved like git pathspecs,
// stored POSIX-style relative to the root, refused through `..`, an absolute path or a symlink.
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { InvalidStateError, UsageError } from '../errors.js';
import { orElse } from './or-else.js';
import { AGENT_DIR } from './paths.js';

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function outside(input: string, what: string): UsageError {
  return new UsageError(`${what} "${input}" is outside the repository`, {
    hint: 'name paths inside the repository, relative to the current directory or its root (no `..` past the root)',
  });
}

// Joins a cwd-relative or absolute input onto the root, normalizes it, and refuses an escape.
function confine(root: string, cwd: string, input: string, what: string): string {
  const trimmed = input.trim();
  if (trimmed === '') throw new UsageError(`the ${what} is empty`, { hint: `name a ${what}` });
  let joined: string;
  if (isAbsolute(trimmed)) {
    const rel = relative(root, trimmed);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw outside(input, what);
    joined = toPosix(rel);
  } else {
    const prefix = toPosix(relative(root, cwd));
    if (prefix === '..' || prefix.startsWith('../') || isAbsolute(prefix))
      throw outside(input, what);
    joined = posix.join(prefix, trimmed);
  }
  const normalized = posix.normalize(joined);
  if (normalized === '..' || normalized.startsWith('../')) throw outside(input, what);
  return normalized === '.' || normalized === './' ? '' : normalized.replace(/^\.\//, '');
}

/** A root-relative POSIX path for a user-given path (relative to `cwd`, or absolute inside `root`). */
export function toRepoPath(root: string, cwd: string, input: string, what = 'path'): string {
  const path = confine(root, cwd, input, what).replace(/\/+$/, '');
  if (path !== '' && !staysInside(root, path)) throw outside(input, what);
  return path;
}

/** A root-relative glob for a user-given glob (relative to `cwd`); `''` means the whole root. */
export function toRepoGlob(root: string, cwd: string, input: string): string {
  return confine(root, cwd, input, 'glob');
}

let realRootCache: { root: string; real: string } | undefined;

function realRoot(root: string): string {
  if (realRootCache?.root !== root) realRootCache = { root, real: realpathSync(root) };
  return realRootCache.real;
}

// The last component is not followed: a symlink is recorded by its link text, never read through.
/** Whether root-relative `rel` stays inside the root, its parents' symlinks followed. */
export function staysInside(root: string, rel: string): boolean {
  return dirStaysInside(root, dirname(join(root, rel)));
}

// 3,000 marker files in one folder resolve it once, not 3,000 times.
/** staysInside for one pass over many paths: each parent directory is resolved once. */
export function insideChecker(root: string): (rel: string) => boolean {
  const dirs = new Map<string, boolean>();
  return (rel) => {
    const dir = dirname(join(root, rel));
    let inside = dirs.get(dir);
    if (inside === undefined) dirs.set(dir, (inside = dirStaysInside(root, dir)));
    return inside;
  };
}

const tryRealpath = (path: string): string | null => orElse(() => realpathSync(path), null);

/** `path`'s nearest existing ancestor's real path (`real`: null if absent), the rest after it. */
export function realPathOf(path: string, real = tryRealpath): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    const found = real(at);
    if (found !== null) return join(found, ...rest.reverse());
    if (dirname(at) === at) return path;
    rest.push(basename(at));
  }
}

function dirStaysInside(root: string, start: string): boolean {
  return isUnder(realPathOf(start), realRoot(root));
}

// Whether the real path `real` is the real root `base` or inside it.
function isUnder(real: string, base: string): boolean {
  return real === base || real.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
}

/** The error for a symlink agent-state will not write, delete or serve through (exit 2). */
export function linkRefused(rel: string, path: string): InvalidStateError {
  return new InvalidStateError(
    `is a symbolic link (to ${readlinkSync(path)}): agent-state writes only to real files and folders inside the repository`,
    {
      location: { file: rel },
      hint: `replace the link with a real file or folder (rm ${rel}; git rm --cached ${rel} if it is committed)`,
    },
  );
}

/** Refuses to write `rel` when its real path leaves the root; the error names the first link. */
export function requireRealInside(root: string, rel: string): void {
  if (staysInside(root, `${rel}/x`)) return;
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const link = parts.slice(0, i).join('/');
    if (lstatSync(join(root, link), { throwIfNoEntry: false })?.isSymbolicLink())
      throw linkRefused(link, join(root, link));
  }
}

// What is read goes into committed evidence: `/etc/shadow` must not be one typo away.
/** Refuses a file to read outside the repository (links followed) unless `allowOutside`. */
export function requireInsideRepo(
  root: string,
  path: string,
  option: string,
  allowOutside = false,
): void {
  if (!existsSync(path)) return;
  const real = realpathSync(path);
  const base = realRoot(root);
  if (isGitPath(toPosix(relative(base, real))))
    throw new UsageError(`${option} ${path} is git's own file (it may hold remote credentials)`, {
      hint: 'name a file of the work tree',
    });
  if (allowOutside) return;
  if (isUnder(real, base)) return;
  throw new UsageError(`${option} ${path} is outside the repository`, {
    hint: `copy the file into the repository first, or pass --allow-outside to read ${real}`,
  });
}

/** Whether a root-relative path is inside a `.git` directory: never a marker file or a body. */
export function isGitPath(rel: string): boolean {
  return /(?:^|\/)\.git(?:\/|$)/i.test(rel);
}

/** Whether a root-relative path is the agent state itself (never drift, never a marker file). */
export function isAgentPath(rel: string): boolean {
  return rel === AGENT_DIR || rel.startsWith(`${AGENT_DIR}/`);
}
