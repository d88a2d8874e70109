// The public library API of agent-state: what a harness author needs to keep an agent's task
// state (docs/api.md). Re-exports only; the building blocks are under the documented subpaths
// agent-state/boot, /events, /recovery, /hosts, /git-hooks and /ui.
export type * from './types.js';
export { PLAN_STATUSES } from './types.js';
export {
  AgentStateError,
  BusyError,
  CancelledError,
  CheckFailedError,
  ClaimedError,
  ConflictError,
  InvalidStateError,
  NotInitializedError,
  UsageError,
  type AgentStateErrorOptions,
  type ErrorCode,
  type SourceLocation,
} from './errors.js';
export {
  describeError,
  errorText,
  EXIT,
  type ErrorReport,
  type ExitCode,
  type ReportCode,
} from './error-report.js';
export { packageVersion } from './package-root.js';
export { redactSecrets } from './text/redact.js';
export { safeText } from './text/safe-text.js';

// The state files.
export { findRoot, type RootInfo } from './state/find-root.js';
export { statePaths, type StatePaths } from './state/paths.js';
export { initState, type InitOptions, type InitResult } from './state/init.js';
export { readConfig, readGoals, readProgress, setGoal, withStateLock } from './state/store.js';
export { parseGoals } from './state/goals.js';
export { loadState, type LoadedState } from './task/load-state.js';
export { updateProgress, type UpdateOptions, type UpdateResult } from './task/update-progress.js';
export { addPlanItem, findPlanItem, setPlanStatus, type AddPlanItem } from './state/plan.js';
export {
  addMemory,
  dropMemory,
  listMemory,
  promoteMemory,
  type MemoryKind,
  type MemoryNote,
  type MemoryRef,
} from './state/memory.js';
export { pendingReminders, queueReminder } from './state/reminders.js';
export { setCurrentStep, type CurrentStepChange } from './state/current-step.js';
export {
  compileForbidden,
  findForbidden,
  type ForbiddenHit,
  type ForbiddenMatcher,
} from './state/forbidden.js';
export type { ParsedFile } from './state/parsed-file.js';
export type { Problem } from './state/yaml-doc.js';

// Several agents on one task (docs/multi-agent.md).
export { claimItem, releaseItem } from './task/claim-item.js';
export { agentsOverview, type AgentsOverview } from './task/agents-overview.js';
export { runMergeDriver, type MergeDriverResult } from './merge/merge-driver.js';

// Proof of work: fingerprints, completion markers, evidence, verify, checkpoint, boot.
export { collectFingerprint, type CollectedFingerprint } from './fingerprint/collect.js';
export type { Drift, FileChange, HeadDrift } from './fingerprint/diff.js';
export { measureDrift } from './fingerprint/measure-drift.js';
export { markDone, type MarkDoneOptions, type MarkDoneResult } from './markers/mark-done.js';
export { markUndone, type MarkUndoneResult } from './markers/mark-done.js';
export {
  checkMarkers,
  isDone,
  type CheckMarkersResult,
  type MarkerCheck,
  type MarkerState,
} from './markers/check-markers.js';
export {
  addEvidence,
  type AddEvidenceResult,
  type EvidenceInput,
} from './evidence/add-evidence.js';
export { listEvidence, readEvidence } from './evidence/evidence-folder.js';
export type { EvidenceEntry, EvidenceMeta, EvidenceRef } from './evidence/evidence-file.js';
export { verify, type VerifyReport } from './verify/verify.js';
export type { VerifyFinding } from './verify/findings.js';
export {
  checkpoint,
  type CheckpointOptions,
  type CheckpointResult,
} from './checkpoint/checkpoint.js';
export { boot, type BootOptions, type BootResult } from './boot/boot.js';
export type { BootLevel, BootFormat, BootRole } from './boot/types.js';

// The event log and the status (docs/status-bar.md).
export type { AgentEvent, EventInput, StatusSnapshot } from './events/types.js';
export { appendEvent, appendEvents, recordEvent } from './events/append.js';
export { readEvents, type EventQuery } from './events/read-log.js';
export { readStatus, type ReadStatusResult } from './status/read-status.js';
export { renderStatus, type StatusFormat } from './events/render.js';
export { publishStatusTo, type PublishToOptions } from './status/publish-to.js';

// Agent hosts, git hooks, watch, the MCP server and the page.
export { HOST_NAMES, type HostName } from './hosts/host-names.js';
export { loadHost } from './hosts/hosts.js';
export type { HostAdapter } from './hosts/host-adapter.js';
export {
  integrate,
  type IntegrateOptions,
  type IntegrateResult,
  type IntegrationHost,
} from './hosts/integrate.js';
export { runDoctor, type DoctorResult } from './hosts/doctor.js';
export { runHostHook, type HostHookResult } from './hosts/run-host-hook.js';
export { createAgentStateMcpServer, serveAgentStateMcp } from './mcp/lazy.js';
export { installHooks, uninstallHooks, type HooksOptions } from './git-hooks/install.js';
export { hooksStatus } from './git-hooks/status.js';
export { watchState, type WatchHandle, type WatchOptions } from './watch/watch.js';
export { startUiServer, type UiServer, type UiServerOptions } from './ui/serve.js';
export { writeHtmlReport, type HtmlReportOptions } from './ui/write-report.js';
