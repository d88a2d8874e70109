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
  CancelledError,
  formatLocation,
  type AgentStateErrorOptions,
  type ErrorCode,
  type SourceLocation,
} from './errors.js';
export {
  describeError,
  errorDocument,
  errorText,
  exitCodeFor,
  EXIT,
  type ErrorReport,
  type ExitCode,
  type ReportCode,
} from './error-report.js';
export { findRoot, locateRoot, type RootInfo } from './state/find-root.js';
// Several agents (docs/multi-agent.md): names, claims, the agents of every worktree, the merge.
export { AGENT_ENV, checkAgentName, resolveAgent } from './agents/agent-name.js';
export {
  applyClaimRules,
  claimPlanItem,
  claimState,
  describeClaim,
  planClaims,
  releasePlanItem,
  type ClaimClock,
  type ClaimResult,
  type ClaimState,
} from './agents/claims.js';
export { claimItem, releaseItem } from './agents/claim-item.js';
export {
  agentsOverview,
  type AgentView,
  type AgentsOverview,
  type OverviewOptions,
  type WorktreeView,
} from './agents/agents-overview.js';
export { ClaimedError } from './errors.js';
export {
  mergeProgress,
  type MergeConflict,
  type MergeDecision,
  type MergeOutcome,
} from './merge/merge-progress.js';
export { mergeYamlText, type MergedText } from './merge/merge-yaml.js';
export {
  runMergeDriver,
  type MergeDriverFiles,
  type MergeDriverResult,
} from './merge/merge-driver.js';
export { statePaths, type StatePaths } from './state/paths.js';
export { initState, type InitOptions, type InitResult } from './state/init.js';
export {
  loadState,
  readConfig,
  readGoals,
  readAgentProgress,
  readProgress,
  readProgressFor,
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
  newPlanId,
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
} from './integrations/host-hook/run-host-hook.js';
export { parseHookPayload, HookInputError } from './integrations/host-hook/parse-payload.js';
export { renderHookOutput } from './integrations/host-hook/render-output.js';
export {
  HOST_NAMES,
  type HostName,
  type HookEvent,
  type HookKind,
  type HookOutcome,
  type HookTool,
} from './integrations/host-hook/hook-event.js';
export type { HookServices, HookFact } from './integrations/host-hook/handle-event.js';
export { checkToolCall, type ToolFinding } from './integrations/host-hook/tool-check.js';
export { shellWrittenPaths } from './integrations/host-hook/shell-paths.js';
export {
  renderStatusline,
  runStatusline,
  type StatuslineFacts,
} from './integrations/statusline.js';
export { createAgentStateMcpServer, serveAgentStateMcp } from './integrations/mcp/lazy.js';
export type { McpServerOptions } from './integrations/mcp/server.js';
export {
  installHooks,
  uninstallHooks,
  installedBinary,
  type HooksOptions,
} from './git-hooks/install.js';
export { hooksStatus } from './git-hooks/status.js';
export { detectHookManager, type DetectedManager } from './git-hooks/detect.js';
export { preCommitSnippet } from './git-hooks/pre-commit-framework.js';
export type {
  HookManager,
  HookName,
  HookFileChange,
  HookInstallResult,
  HookUninstallResult,
  HookStatus,
  HookStatusEntry,
} from './git-hooks/hook-types.js';
export { runPreCommit, type PreCommitResult } from './git-hooks/pre-commit-hook.js';
export {
  checkStagedForbidden,
  checkStagedMarkers,
  markerCoverage,
  type HookFinding,
  type HookFindingKind,
} from './git-hooks/staged-check.js';
export { checkStagedStateFiles, type StagedStateFile } from './git-hooks/staged-state.js';
export type { StagedChange } from './git/hooks-git.js';
export { recordCheckout, recordMerge, type GitEventResult } from './git-hooks/git-events.js';
export {
  watchState,
  type WatchOptions,
  type WatchHandle,
  type WatchReady,
  type WatchSummary,
  type WatchEvent,
} from './watch/watch.js';

// The event log and the status bar (docs/status-bar.md).
export type * from './events/types.js';
export { KNOWN_EVENT_TYPES, EVENT_ACTORS } from './events/types.js';
export { appendEvent, appendEvents, withLogLock, type AppendOptions } from './events/append.js';
export { recordEvent, type RecordResult } from './events/record.js';
export { prepareEvent, eventProblems, defaultActor } from './events/validate-event.js';
export { readEvents, type EventQuery } from './events/query.js';
export { eventLogPaths, type EventLogPaths } from './events/log-paths.js';
export { reduceStatus, emptySnapshot } from './events/reduce.js';
export { loadStatus, type LoadedStatus } from './events/status-cache.js';
export { withTaskState } from './events/task-state.js';
export {
  computeSignals,
  type SignalId,
  type SignalOptions,
  type SignalThresholds,
  type StatusSignal,
} from './events/signals.js';
export {
  statusSections,
  STATUS_SECTIONS,
  type SectionName,
  type StatusSections,
  type StatusView,
} from './events/sections.js';
export {
  readStatus,
  buildStatusView,
  type ReadStatusResult,
  type StatusViewOptions,
} from './events/read-status.js';
export {
  renderStatus,
  renderStatusDelta,
  CLEARED_MESSAGE,
  STATUS_FORMATS,
  type StatusFormat,
  type StatusRenderKind,
} from './events/render.js';
export { diffStatus, stableHash, type StatusDiff } from './events/diff.js';
export {
  publishStatus,
  PUBLISH_STRATEGIES,
  type PublishCursor,
  type PublishOptions,
  type PublishResult,
  type PublishStrategy,
} from './events/publish.js';
export { readCursor, writeCursor } from './events/cursor-store.js';
export { publishStatusTo, type PublishToOptions } from './events/publish-to.js';
// Fingerprints, drift, completion markers, evidence, verify, checkpoint (issue 3).
export { updateProgressLocked } from './state/store.js';
export { findRepo, type Repo } from './state/repo.js';
export { toRepoPath, toRepoGlob } from './state/repo-path.js';
export {
  collectFingerprint,
  type CollectOptions,
  type CollectedFingerprint,
} from './fingerprint/collect.js';
export {
  diffFingerprint,
  type Drift,
  type DriftContext,
  type FileChange,
  type HeadDrift,
} from './fingerprint/diff.js';
export { measureDrift, type MeasureDriftOptions } from './fingerprint/measure-drift.js';
export type { CommitInfo, History } from './git/history.js';
export { markDone, type MarkDoneOptions, type MarkDoneResult } from './markers/mark-done.js';
export { markUndone, type MarkUndoneResult } from './markers/mark-undone.js';
export {
  checkMarkers,
  checkProgressMarkers,
  evaluateMarker,
  isDone,
  type CheckMarkersOptions,
  type CheckMarkersResult,
  type MarkerChange,
  type MarkerCheck,
  type MarkerState,
} from './markers/check-markers.js';
export {
  addEvidence,
  type AddEvidenceResult,
  type EvidenceInput,
} from './evidence/add-evidence.js';
export { listEvidence, readEvidence } from './evidence/read-evidence.js';
export type { EvidenceEntry, EvidenceMeta, EvidenceRef } from './evidence/evidence-file.js';
export { redactSecrets, redactValue, createRedactor, type Redactor } from './evidence/redact.js';
export { safeText, safeJson, safeValue, type SafeTextOptions } from './text/safe-text.js';
export { verify, type VerifyReport } from './verify/verify.js';
export type { VerifyFinding, ForbiddenFinding, ForbiddenSource } from './verify/findings.js';
export type { StateProblem } from './verify/read-state-checked.js';
export {
  checkpoint,
  type CheckpointOptions,
  type CheckpointPhase,
  type CheckpointResult,
} from './checkpoint/checkpoint.js';
export type { TestRun } from './checkpoint/run-tests.js';
export { parseTestCounts, type TestCounts } from './checkpoint/parse-test-counts.js';
export { boot, type BootOptions, type BootResult } from './boot/boot.js';
export { renderBoot } from './boot/render-boot.js';
export { bootDocument, type BootDocument } from './boot/boot-document.js';
export { chooseLevel, contextRecovery } from './boot/choose-level.js';
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
  type BootRecovery,
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
export {
  dropShownReminders,
  pendingReminders,
  queueReminder,
  reminderKey,
  takeReminders,
} from './state/reminders.js';
// What a boot, progress, a restart loop and own or foreign drift are (docs/boot.md).
export {
  NO_OWN_FACTS,
  PROGRESS_PARTS,
  countBoot,
  digestProgress,
  inRestartLoop,
  judgeDrift,
  judgePath,
  judgeStale,
  loopHolds,
  progressMoved,
  type BootCount,
  type DriftVerdict,
  type LastBoot,
  type OwnFacts,
  type PathVerdict,
  type ProgressDigest,
  type ProgressExtras,
  type ProgressPart,
  type StaleVerdict,
  type TreeNow,
} from './recovery/facts.js';
export {
  confirmCompaction,
  expireNote,
  noteCompaction,
  type CompactionNote,
  type CompactionState,
  type ConfirmedBy,
} from './recovery/compaction.js';
export { readRecovery, recoveryPath } from './recovery/record-store.js';
export type { RecoveryRecord } from './recovery/record.js';
export { setCurrentStep, type CurrentStepChange } from './state/current-step.js';
// The page of the Task Context: `agent-state ui` and `report --html` (docs/ui.md).
export type * from './ui/model.js';
export { UiSource, type TimelineQuery } from './ui/ui-source.js';
export { buildUiModel, restoreCommands, type UiInput } from './ui/build-model.js';
export {
  renderPage as renderUiPage,
  renderSections as renderUiSections,
  contentSecurityPolicy,
  SECTION_IDS as UI_SECTION_IDS,
  type RenderOptions as UiRenderOptions,
} from './ui/render-page.js';
export {
  writeHtmlReport,
  type HtmlReportOptions,
  type HtmlReportResult,
} from './ui/write-report.js';
export { startUiServer, type UiServer, type UiServerOptions } from './ui/serve.js';
export { omittedFact, type OmittedFact } from './boot/omitted-fact.js';
export { verifyChecked } from './verify/verify.js';
