// `hooks status`: where our hooks are installed, and whether git will actually run them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseOptions } from '../types.js';
import { detectHookManager, isHuskyHooksPath } from './detect.js';
import { agentStateUnfound, hookContext, type HookContext } from './hook-context.js';
import {
  GIT_HOOK_NAMES,
  type GitHookName,
  type GitHookStatus,
  type GitHookStatusEntry,
} from './git-hook-types.js';
import { findLefthookConfig, lefthookInstalled } from './lefthook.js';
import { PRE_COMMIT_CONFIG, preCommitInstalled } from './pre-commit-framework.js';
import { shellHookStatus } from './shell-hook.js';
import { mergeDriverStatus } from './merge-setup.js';

// The binary a plain git block calls, if it was recorded and is gone (the hook then falls back).
function missingBinary(text: string | null): string | null {
  const match = /^\s*agent_state_js='((?:[^']|'\\'')*)'$/m.exec(text ?? '');
  if (!match) return null;
  const script = match[1]!.replace(/'\\''/g, "'");
  return existsSync(script) ? null : script;
}

function runnerText(ctx: HookContext, hook: GitHookName): string {
  try {
    return readFileSync(join(ctx.hooksDir, hook), 'utf8');
  } catch {
    return '';
  }
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

// The problems of an installed job of lefthook or pre-commit: git has no runner for it, or its
// lookup finds no agent-state to call (`unfound`).
function jobProblems(
  ctx: HookContext,
  hook: GitHookName,
  runner: string,
  fix: string,
  unfound: string | null,
): string[] {
  const problems = runnerText(ctx, hook).includes(runner)
    ? []
    : [`git has no ${runner} runner for ${hook} (fix: ${fix})`];
  if (unfound) problems.push(`the ${hook} job ${unfound}`);
  return problems;
}

function lefthookEntries(ctx: HookContext): GitHookStatusEntry[] {
  const { file, hooks } = lefthookInstalled(ctx.root);
  const unfound = hooks.length > 0 ? agentStateUnfound(ctx) : null;
  return GIT_HOOK_NAMES.map((hook) => {
    const installed = hooks.includes(hook);
    const problems = installed
      ? jobProblems(ctx, hook, 'lefthook', 'npx lefthook install', unfound)
      : [];
    return {
      manager: 'lefthook' as const,
      hook,
      file: file ?? 'lefthook.yml',
      installed,
      problems,
    };
  });
}

function preCommitEntries(ctx: HookContext): GitHookStatusEntry[] {
  const listed = preCommitInstalled(ctx.root);
  const unfound = listed.length > 0 ? agentStateUnfound(ctx) : null;
  return GIT_HOOK_NAMES.map((hook) => {
    const installed = listed.includes(hook);
    const problems = installed
      ? jobProblems(ctx, hook, 'pre-commit', `pre-commit install --hook-type ${hook}`, unfound)
      : [];
    return { manager: 'pre-commit' as const, hook, file: PRE_COMMIT_CONFIG, installed, problems };
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
    ...(findLefthookConfig(ctx.root) ? lefthookEntries(ctx) : []),
    ...(existsSync(join(ctx.root, PRE_COMMIT_CONFIG)) ? preCommitEntries(ctx) : []),
  ];
  // Show what is installed anywhere, and what the detected manager is missing.
  const entries = all.filter((e) => e.installed || e.manager === detected.manager);
  if (detected.manager === 'git')
    for (const hook of GIT_HOOK_NAMES)
      if (!entries.some((e) => e.manager === 'git' && e.hook === hook))
        entries.push({
          manager: 'git',
          hook,
          file: ctx.display(join(ctx.hooksDir, hook)),
          installed: false,
          problems: [],
        });
  const active = entries.some(
    (e) => e.hook === 'pre-commit' && e.installed && e.problems.length === 0,
  );
  return {
    detected,
    hooksDir: ctx.display(ctx.hooksDir),
    entries,
    active,
    merge_driver: mergeDriverStatus(ctx.root, options.env),
  };
}
