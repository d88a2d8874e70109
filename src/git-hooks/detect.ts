// Which hook manager a repository uses, from what is on disk and git's core.hooksPath.
import { join } from 'node:path';
import { isDir } from '../state/find-root.js';
import type { GitHookManager } from './git-hook-types.js';
import { findLefthookConfig, usesLefthook } from './lefthook.js';
import { PRE_COMMIT_CONFIG, usesPreCommit } from './pre-commit-framework.js';

/** The manager to install into, and why it was chosen. */
export interface DetectedManager {
  manager: GitHookManager;
  reason: string;
}

/** Whether core.hooksPath points at husky's directory (`.husky/_` since v9, `.husky` before). */
export function isHuskyHooksPath(hooksPath: string | null): boolean {
  return hooksPath !== null && /(^|[\\/])\.husky([\\/]_)?[\\/]?$/.test(hooksPath);
}

/** The manager the repository uses: husky, lefthook, pre-commit (by their files), else plain git hooks. */
export function detectHookManager(root: string, hooksPath: string | null): DetectedManager {
  if (isHuskyHooksPath(hooksPath))
    return { manager: 'husky', reason: `core.hooksPath is ${hooksPath} (husky)` };
  if (isDir(join(root, '.husky'))) return { manager: 'husky', reason: '.husky/ exists' };
  if (usesLefthook(root))
    return {
      manager: 'lefthook',
      reason: `${findLefthookConfig(root) ?? 'a lefthook config'} exists`,
    };
  if (usesPreCommit(root)) return { manager: 'pre-commit', reason: `${PRE_COMMIT_CONFIG} exists` };
  if (hooksPath !== null)
    return { manager: 'git', reason: `core.hooksPath is ${hooksPath} (plain git hooks there)` };
  return { manager: 'git', reason: 'no hook manager found: plain git hooks' };
}
