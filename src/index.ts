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
export { boot, type BootOptions, type BootResult } from './boot/boot.js';
export { renderBoot } from './boot/render-boot.js';
export { bootDocument, type BootDocument } from './boot/boot-document.js';
export { chooseLevel } from './boot/choose-level.js';
export { loadO200kCounter } from './boot/o200k-counter.js';
export { heuristicCounter, heuristicTokens } from './boot/heuristic-counter.js';
export {
  BOOT_FORMATS,
  BOOT_ROLES,
  BOOT_SOURCES,
  LEVEL_NAMES,
  type BootContext,
  type BootDrift,
  type BootEvidence,
  type BootFormat,
  type BootLayer,
  type BootLevel,
  type BootMarker,
  type BootOmission,
  type BootRendering,
  type BootRole,
  type BootSection,
  type BootSource,
  type LevelChoice,
  type RenderBootOptions,
  type TokenCounter,
} from './boot/types.js';
export {
  addMemory,
  dropMemory,
  listMemory,
  parseMemoryRef,
  promoteMemory,
  type MemoryKind,
  type MemoryNote,
  type MemoryRef,
} from './state/memory.js';
export { queueReminder, takeReminders } from './state/reminders.js';
export { setCurrentStep, type CurrentStepChange } from './state/current-step.js';
