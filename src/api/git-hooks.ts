// agent-state/git-hooks: git's hooks, the staged checks, the merge driver and watch
// (docs/hooks.md, docs/multi-agent.md).
export {
  mergeProgress,
  type MergeConflict,
  type MergeDecision,
  type MergeOutcome,
} from '../merge/merge-progress.js';
export { mergeYamlText, type MergedText } from '../merge/merge-yaml.js';
export type { MergeDriverFiles } from '../merge/merge-driver.js';
export { installedBinary } from '../git-hooks/install.js';
export { detectHookManager, type DetectedManager } from '../git-hooks/detect.js';
export { preCommitSnippet } from '../git-hooks/pre-commit-framework.js';
export type {
  GitHookManager,
  GitHookName,
  GitHookFileChange,
  GitHookInstallResult,
  GitHookUninstallResult,
  GitHookStatus,
  GitHookStatusEntry,
} from '../git-hooks/git-hook-types.js';
export { runPreCommit, type PreCommitResult } from '../git-hooks/pre-commit-hook.js';
export {
  checkStagedForbidden,
  checkStagedMarkers,
  markerCoverage,
  type HookFinding,
  type HookFindingKind,
} from '../verify/staged-check.js';
export { checkStagedStateFiles, type StagedStateFile } from '../verify/staged-state.js';
export type { StagedChange } from '../git/git-hook-calls.js';
export { recordCheckout, recordMerge, type GitEventResult } from '../git-hooks/git-events.js';
export type { WatchReady, WatchSummary, WatchEvent } from '../watch/watch.js';
