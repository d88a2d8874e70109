// Types shared by the hook installers, the status report and the CLI.
import type { MergeDriverChange, MergeDriverStatus } from './merge-setup.js';

/** The hook managers agent-state knows how to install into. */
export type HookManager = 'git' | 'husky' | 'lefthook' | 'pre-commit';

export const HOOK_MANAGERS: readonly HookManager[] = ['git', 'husky', 'lefthook', 'pre-commit'];

/** The git hooks agent-state provides. */
export type HookName = 'pre-commit' | 'post-checkout' | 'post-merge';

export const HOOK_NAMES: readonly HookName[] = ['pre-commit', 'post-checkout', 'post-merge'];

/** What an install or uninstall did to one file. */
export interface HookFileChange {
  manager: HookManager;
  /** POSIX path relative to the work tree top, or absolute when outside it. */
  file: string;
  hook: HookName | null;
  action: 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted';
}

/** The result of `installHooks` / `uninstallHooks`. */
export interface HookInstallResult {
  manager: HookManager;
  /** Why this manager was chosen (auto-detection or the caller's choice). */
  reason: string;
  hooks: HookName[];
  changes: HookFileChange[];
  /** For pre-commit: the `repo: local` snippet to add to .pre-commit-config.yaml. */
  snippet: string | null;
  /** Things the user should know or do next. */
  notes: string[];
  /** The merge driver of the state files (.gitattributes + git config); null when skipped. */
  merge_driver: MergeDriverChange | null;
}

/** The result of `uninstallHooks`. */
export interface HookUninstallResult {
  changes: HookFileChange[];
  notes: string[];
  /** The merge driver's registration removed; null when skipped. */
  merge_driver: MergeDriverChange | null;
}

/** Where one of our hooks is (or would be) installed, and whether git will run it. */
export interface HookStatusEntry {
  manager: HookManager;
  hook: HookName;
  /** The file holding our part. */
  file: string;
  installed: boolean;
  /** Why git would not run it, when installed. */
  problems: string[];
}

/** The result of `hooksStatus`. */
export interface HookStatus {
  /** The manager `hooks install` would pick, and why. */
  detected: { manager: HookManager; reason: string };
  /** git's hooks directory (core.hooksPath when set). */
  hooksDir: string;
  entries: HookStatusEntry[];
  /** True when at least one pre-commit hook of ours is installed and has no problem. */
  active: boolean;
  /** Whether git merges the state files with our driver. */
  merge_driver: MergeDriverStatus;
}
