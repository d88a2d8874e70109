// `hooks status`: where our hooks are installed, and whether git will actually run them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseOptions } from '../types.js';
import { detectHookManager, isHuskyHooksPath } from './detect.js';
import { agentStateUnfound, hookContext, runnerText, type HookContext } from './hook-context.js';
import {
  GIT_HOOK_NAMES,
  type GitHookName,
  type GitHookStatus,
  type GitHookStatusEntry,
} from './git-hook-types.js';
import { lefthookInstalled } from './lefthook.js';
import { preCommitInstalled } from './pre-commit-framework.js';
import { shellHookStatus } from './shell-hook.js';
import { mergeDriverStatus } from './merge-setup.js';

// The binary a plain git block calls, if it was recorded and is gone (the hook then falls back).
function missingBinary(text: string | null): string | null {
  const match = /^\s*agent_state_js='((?:[^']|'\\'')*)'$/m.exec(text ?? '');
  if (!match) return null;
  const script = match[1]!.replace(/'\\''/g, "'");
  return existsSync(script) ? null : script;
}

function gitEntries(ctx: HookContext): GitHookStatusEntry[] {
  const entries: GitHookStatusEntry[] = [];
  for (const dir of new Set([ctx.hooksDir, ctx.defaultHooksDir]))
    for (const hook of GIT_HOOK_NAMES) {
      const path = join(dir, hook);
      const file = ctx.display(path);
      const { installed, problems, text } = shellHookStatus(path, file, { needsExec: true });
      if (!installed) continue;
      if (dir !== ctx.hooksDir)
        problems.push(`git does not run hooks from here: core.hooksPath is ${ctx.hooksPath}`);
      const gone = missingBinary(text);
      if (gone)
        problems.push(
          `the recorded binary ${gone} is gone; the hook falls back to node_modules/.bin or PATH (fix: agent-state hooks install)`,
        );
      entries.push({ manager: 'git', hook, file, installed, problems });
    }
  return entries;
}

function huskyEntries(ctx: HookContext): GitHookStatusEntry[] {
  return GIT_HOOK_NAMES.map((hook) => {
    const path = join(ctx.root, '.husky', hook);
    const file = ctx.display(path);
    const { installed, problems } = shellHookStatus(path, file, { needsExec: false });
    if (installed && !isHuskyHooksPath(ctx.hooksPath))
      problems.push('husky is not active in this clone (fix: npx husky, or npm install)');
    return { manager: 'husky' as const, hook, file, installed, problems };
  });
}

// A manager whose config lists our jobs (lefthook, pre-commit): an installed job's problems are
// that git has no runner for it, or that its lookup finds no agent-state to call.
function jobEntries(
  ctx: HookContext,
  manager: 'lefthook' | 'pre-commit',
  { file, hooks }: { file: string | null; hooks: readonly GitHookName[] },
  fix: string,
): GitHookStatusEntry[] {
  if (file === null) return [];
  const unfound = hooks.length > 0 ? agentStateUnfound(ctx) : null;
  return GIT_HOOK_NAMES.map((hook) => {
    const installed = hooks.includes(hook);
    const problems: string[] = [];
    if (installed && !runnerText(ctx, hook).includes(manager))
      problems.push(
        `git has no ${manager} runner for ${hook} (fix: ${fix.replace('<hook>', hook)})`,
      );
    if (installed && unfound) problems.push(`the ${hook} job ${unfound}`);
    return { manager, hook, file, installed, problems };
  });
}

/** Where our hooks are, per manager, with the reasons git would not run them. */
export function hooksStatus(options: BaseOptions = {}): GitHookStatus {
  const ctx = hookContext(options);
  const detected = detectHookManager(ctx.root, ctx.hooksPath);
  const all = [
    ...gitEntries(ctx),
    ...(existsSync(join(ctx.root, '.husky')) || detected.manager === 'husky'
      ? huskyEntries(ctx)
      : []),
    ...jobEntries(ctx, 'lefthook', lefthookInstalled(ctx.root), 'npx lefthook install'),
    ...jobEntries(
      ctx,
      'pre-commit',
      preCommitInstalled(ctx.root),
      'pre-commit install --hook-type <hook>',
    ),
  ];
  // Show what is installed anywhere, and what the detected manager is missing.
  const entries = all.filter((e) => e.installed || e.manager === detected.manager);
  if (detected.manager === 'git')
    for (const hook of GIT_HOOK_NAMES) {
      const file = ctx.display(join(ctx.hooksDir, hook));
      if (!entries.some((e) => e.manager === 'git' && e.hook === hook))
        entries.push({ manager: 'git', hook, file, installed: false, problems: [] });
    }
  const active = entries.some((e) => e.hook === 'pre-commit' && e.installed && !e.problems.length);
  return {
    detected,
    hooksDir: ctx.display(ctx.hooksDir),
    entries,
    active,
    merge_driver: mergeDriverStatus(ctx.root, options.env),
  };
}
