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
// Agent host integrations (issue 7): integrate/doctor, the host hook handler, the MCP server.
export {
  integrate,
  INTEGRATION_HOSTS,
  AGENTS_MD_FILES,
  type IntegrateOptions,
  type IntegrateResult,
  type IntegrationHost,
  type IntegrationScope,
} from './integrations/integrate.js';
export type { IntegrationChange, ChangeAction } from './integrations/file-edits.js';
export type { HookBinary } from './integrations/hook-binary.js';
export { PROTOCOL_BLOCK } from './integrations/protocol-block.js';
export {
  runDoctor,
  type DoctorCheck,
  type DoctorResult,
  type CheckStatus,
} from './integrations/doctor.js';
export {
  runHostHook,
  type HostHookResult,
  type RunHostHookOptions,
} from './integrations/hook/run-host-hook.js';
export { parseHookPayload, HookInputError } from './integrations/hook/parse-payload.js';
export { renderHookOutput } from './integrations/hook/render-output.js';
export {
  HOST_NAMES,
  type HostName,
  type HookEvent,
  type HookKind,
  type HookOutcome,
  type HookTool,
} from './integrations/hook/hook-event.js';
export type { HookServices, HookFact } from './integrations/hook/handle-event.js';
export { checkToolCall, type ToolFinding } from './integrations/hook/tool-check.js';
export { shellWrittenPaths } from './integrations/hook/shell-paths.js';
export {
  renderStatusline,
  runStatusline,
  type StatuslineFacts,
} from './integrations/statusline.js';
export { createAgentStateMcpServer, serveAgentStateMcp } from './integrations/mcp/lazy.js';
export type { McpServerOptions } from './integrations/mcp/server.js';
