// What every hook installer needs to know about the repository, found once.
import { isAbsolute, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { gitConfigGet, gitDefaultHooksDir, gitHooksDir } from '../git/git-hook-calls.js';
import { locateRoot } from '../state/find-root.js';
import type { BaseOptions } from '../types.js';

export interface HookContext {
  /** The git work tree's top level. */
  root: string;
  /** core.hooksPath as configured, or null. */
  hooksPath: string | null;
  /** Where git runs hooks from (core.hooksPath when set). */
  hooksDir: string;
  /** `<git dir>/hooks`, where hooks live when core.hooksPath is not set. */
  defaultHooksDir: string;
  /** The hooks directory is inside the work tree (likely committed and shared). */
  sharedHooksDir: boolean;
  /** A path for messages: relative to the root when inside it. */
  display(path: string): string;
}

/** A path for messages: relative to `root` (POSIX-style) when inside it, else as it is. */
export function shownPath(root: string, path: string): string {
  const r = relative(root, path);
  return r === '' || r.startsWith('..') || isAbsolute(r) ? path : r.split(sep).join('/');
}

/** Resolves the repository of `options.cwd`; throws UsageError outside git. */
export function hookContext(options: BaseOptions): HookContext {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const root = locateRoot(cwd).gitRoot;
  if (root === null)
    throw new UsageError(`${cwd} is not inside a git repository`, {
      hint: 'git hooks need a git repository: run `git init` first',
    });
  const hooksDir = gitHooksDir(root, { env });
  const rel = relative(root, hooksDir);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  return {
    root,
    hooksPath: gitConfigGet(root, 'core.hooksPath', { env }),
    hooksDir,
    defaultHooksDir: gitDefaultHooksDir(root, { env }),
    sharedHooksDir: inside && rel.split(sep)[0] !== '.git',
    display: (path) => shownPath(root, path),
  };
}
