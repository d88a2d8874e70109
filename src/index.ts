// The public library API of agent-state. Re-exports only; see docs/api.md.
export type * from './types.js';
export { PLAN_STATUSES } from './types.js';
export {
  AgentStateError,
  BusyError,
  CheckFailedError,
  ConflictError,
  InvalidStateError,
  NotInitializedError,
  UsageError,
  formatLocation,
  type AgentStateErrorOptions,
  type ErrorCode,
  type SourceLocation,
} from './errors.js';
export { findRoot, locateRoot, type RootInfo } from './state/find-root.js';
export { statePaths, type StatePaths } from './state/paths.js';
export { initState, type InitOptions, type InitResult } from './state/init.js';
export {
  loadState,
  readConfig,
  readGoals,
  readProgress,
  setGoal,
  updateProgress,
  withStateLock,
  type LoadedState,
  type UpdateOptions,
  type UpdateResult,
} from './state/store.js';
export {
  parseGoals,
  renderGoals,
  setGoalAnchor,
  extractGlobs,
  type ParsedGoals,
} from './state/goals.js';
export { parseProgress } from './state/progress.js';
export { parseConfig, resolveConfig, DEFAULT_CONFIG } from './state/config.js';
export {
  addPlanItem,
  setPlanStatus,
  countPlan,
  nextPlanId,
  findPlanItem,
  type AddPlanItem,
} from './state/plan.js';
export { writeFileAtomic } from './state/atomic-write.js';
export {
  compileForbidden,
  findForbidden,
  type ForbiddenHit,
  type ForbiddenMatcher,
} from './state/forbidden.js';
export type { ParsedFile } from './state/parsed-file.js';
export type { Problem } from './state/yaml-doc.js';
export { packageVersion } from './package-root.js';
export {
  installHooks,
  uninstallHooks,
  installedBinary,
  type HooksOptions,
} from './hooks/install.js';
export { hooksStatus } from './hooks/status.js';
export { detectHookManager, type DetectedManager } from './hooks/detect.js';
export { preCommitSnippet } from './hooks/pre-commit-framework.js';
export type {
  HookManager,
  HookName,
  HookFileChange,
  HookInstallResult,
  HookUninstallResult,
  HookStatus,
  HookStatusEntry,
} from './hooks/hook-types.js';
export { runPreCommit, type PreCommitResult } from './hooks/pre-commit-hook.js';
export {
  checkForbidden,
  checkMarkers,
  markerCoverage,
  type HookFinding,
  type HookFindingKind,
} from './hooks/staged-check.js';
export { checkStagedStateFiles, type StagedStateFile } from './hooks/staged-state.js';
export type { StagedChange } from './git/hooks-git.js';
export {
  recordCheckout,
  recordMerge,
  readFacts,
  type RepoFact,
  type FactResult,
} from './hooks/git-facts.js';
export {
  watchState,
  type WatchOptions,
  type WatchHandle,
  type WatchReady,
  type WatchSummary,
  type WatchEvent,
} from './watch/watch.js';
