// What every hook installer needs to know about the repository, found once.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { gitConfigGet, gitDefaultHooksDir, gitPath } from '../git/git-hook-calls.js';
import { installHint } from '../package-root.js';
import { locateRoot } from '../state/find-root.js';
import { orElse } from '../state/or-else.js';
import type { BaseOptions } from '../types.js';
import { PORTABLE_LOOKUP } from './hook-block.js';

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
  /** The environment the hooks run in. */
  env: NodeJS.ProcessEnv;
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
  const hooksDir = gitPath(root, 'hooks', { env });
  const shown = shownPath(root, hooksDir);
  return {
    root,
    hooksPath: gitConfigGet(root, 'core.hooksPath', { env }),
    hooksDir,
    defaultHooksDir: gitDefaultHooksDir(root, { env }),
    sharedHooksDir: shown !== hooksDir && shown.split('/')[0] !== '.git',
    display: (path) => shownPath(root, path),
    env,
  };
}

/**
 * Why a job that calls agent-state from ./node_modules/.bin or PATH (lefthook's, pre-commit's)
 * would do nothing here: that lookup, run by sh in the work tree, finds none. Null when it finds one.
 */
export function agentStateUnfound(ctx: HookContext): string | null {
  const lookup = spawnSync('sh', ['-c', PORTABLE_LOOKUP], { cwd: ctx.root, env: ctx.env });
  return lookup.status === 0
    ? null
    : `finds no agent-state (./node_modules/.bin/agent-state or agent-state on PATH): it does nothing (fix: ${installHint()})`;
}

/** The runner git has for `hook` ('' when none): lefthook and pre-commit run only once they wrote it. */
export function runnerText(ctx: HookContext, hook: string): string {
  return orElse(() => readFileSync(join(ctx.hooksDir, hook), 'utf8'), '');
}
