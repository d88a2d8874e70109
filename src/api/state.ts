// agent-state/state: the building blocks under the main entry — parsers and renderers of the
// state files, the plan, claims, paths, fingerprints, markers, redaction (docs/api.md).
export type * from '../types.js';
export { formatLocation } from '../errors.js';
export { errorDocument, exitCodeFor } from '../error-report.js';
export { AGENT_ENV, checkAgentName, resolveAgent } from '../state/agent-name.js';
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
} from '../task/claims.js';
export type { AgentView, OverviewOptions, WorktreeView } from '../task/agents-overview.js';
export { readAgentProgress } from '../state/store.js';
export { readProgressFor } from '../task/load-state.js';
export { renderGoals, setGoalAnchor, extractGlobs, type ParsedGoals } from '../state/goals.js';
export { parseProgress } from '../state/progress.js';
export { parseConfig, resolveConfig, DEFAULT_CONFIG } from '../state/config.js';
export { countPlan, newPlanId } from '../state/plan.js';
export { writeFileAtomic } from '../state/atomic-write.js';
export { updateProgressLocked } from '../task/update-progress.js';
export { findRepo, locateRoot, type Repo } from '../state/find-root.js';
export { toRepoPath, toRepoGlob } from '../state/repo-path.js';
export type { CollectOptions } from '../fingerprint/collect.js';
export { diffFingerprint, type DriftContext } from '../fingerprint/diff.js';
export type { MeasureDriftOptions } from '../fingerprint/measure-drift.js';
export type { CommitInfo, History } from '../git/history.js';
export {
  checkProgressMarkers,
  evaluateMarker,
  type CheckMarkersOptions,
  type MarkerChange,
} from '../markers/check-markers.js';
export { redactValue, createRedactor, type Redactor } from '../text/redact.js';
export { safeJson, safeValue, type SafeTextOptions } from '../text/safe-text.js';
export type { ForbiddenFinding, ForbiddenSource } from '../verify/findings.js';
export type { StateProblem } from '../verify/read-state-checked.js';
export type { CheckpointPhase } from '../checkpoint/checkpoint.js';
export type { TestRun } from '../checkpoint/run-tests.js';
export { parseTestCounts, type TestCounts } from '../checkpoint/parse-test-counts.js';
export { parseMemoryRef } from '../state/memory.js';
export { dropShownReminders, reminderKey, takeReminders } from '../state/reminders.js';
export { verifyChecked } from '../verify/verify.js';
