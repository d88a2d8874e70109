// Types shared by the hook installers, the status report and the CLI.

/** The hook managers agent-state knows how to install into. */
export const GIT_HOOK_MANAGERS = ['git', 'husky', 'lefthook', 'pre-commit'] as const;
export type GitHookManager = (typeof GIT_HOOK_MANAGERS)[number];

/** The git hooks agent-state provides. */
export type GitHookName = 'pre-commit' | 'post-checkout' | 'post-merge';

export const GIT_HOOK_NAMES: readonly GitHookName[] = ['pre-commit', 'post-checkout', 'post-merge'];

/** What an install or uninstall did to one file. */
export interface GitHookFileChange {
  manager: GitHookManager;
  /** POSIX path relative to the work tree top, or absolute when outside it. */
  file: string;
  hook: GitHookName | null;
  action: 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted';
}

/** The result of `installHooks` / `uninstallHooks`. */
export interface GitHookInstallResult {
  manager: GitHookManager;
  /** Why this manager was chosen (auto-detection or the caller's choice). */
  reason: string;
  hooks: GitHookName[];
  changes: GitHookFileChange[];
  /** For pre-commit: the `repo: local` snippet to add to .pre-commit-config.yaml. */
  snippet: string | null;
  /** Things the user should know or do next. */
  notes: string[];
  /** The merge driver of the state files (.gitattributes + git config); null when skipped. */
  merge_driver: MergeDriverChange | null;
}

/** The result of `uninstallHooks` (merge_driver: the registration removed; null when skipped). */
export type GitHookUninstallResult = Pick<
  GitHookInstallResult,
  'changes' | 'notes' | 'merge_driver'
>;

/** Where one of our hooks is (or would be) installed, and whether git will run it. */
export interface GitHookStatusEntry {
  manager: GitHookManager;
  hook: GitHookName;
  /** The file holding our part. */
  file: string;
  installed: boolean;
  /** Why git would not run it, when installed. */
  problems: string[];
}

/** The result of `hooksStatus`. */
export interface GitHookStatus {
  /** The manager `hooks install` would pick, and why. */
  detected: { manager: GitHookManager; reason: string };
  /** git's hooks directory (core.hooksPath when set). */
  hooksDir: string;
  entries: GitHookStatusEntry[];
  /** True when at least one pre-commit hook of ours is installed and has no problem. */
  active: boolean;
  /** Whether git merges the state files with our driver. */
  merge_driver: MergeDriverStatus;
}

/** What install or uninstall did to the two places. */
export interface MergeDriverChange {
  /** The attributes file: `.gitattributes` (the work tree's) or git's `info/attributes`, as shown. */
  attributes_file: string;
  /** What happened to our block in it. */
  attributes: GitHookFileChange['action'];
  /** `merge.agent-state.*` in the repository's git config. */
  config: 'set' | 'unchanged' | 'removed';
  /** The driver command git runs. */
  driver: string | null;
}

/** Where the merge driver stands in a repository (for `hooks status`). */
export interface MergeDriverStatus {
  /** Whether .gitattributes or info/attributes routes the state files to the driver. */
  attributes: boolean;
  /** Which files do (as shown). */
  attributes_files: string[];
  /** The configured command, or null. */
  driver: string | null;
  active: boolean;
}
