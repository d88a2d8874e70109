// agent-state/events: the event log, the reducer, signals and the status bar's renderings and
// publishing (docs/status-bar.md).
export type * from '../events/types.js';
export { EVENT_ACTORS } from '../events/types.js';
export { withLogLock, type AppendOptions, type RecordResult } from '../events/append.js';
export { prepareEvent, eventProblems, defaultActor } from '../events/validate-event.js';
export { eventLogPaths, type EventLogPaths } from '../events/log-paths.js';
export {
  reduceStatus,
  emptySnapshot,
  KNOWN_EVENT_TYPES,
  type KnownEventType,
} from '../events/reduce.js';
export { loadStatus, type LoadedStatus } from '../events/status-cache.js';
export { withTaskState } from '../events/task-state.js';
export {
  computeSignals,
  type SignalId,
  type SignalOptions,
  type SignalThresholds,
  type StatusSignal,
} from '../events/signals.js';
export {
  statusSections,
  STATUS_SECTIONS,
  type SectionName,
  type StatusSections,
  type StatusView,
} from '../events/sections.js';
export { buildStatusView, type StatusViewOptions } from '../status/status-view.js';
export { renderStatusDelta, CLEARED_MESSAGE, STATUS_FORMATS } from '../events/render.js';
export type { StatusRenderKind } from '../events/sections.js';
export { diffStatus, stableHash, type StatusDiff } from '../events/sections.js';
export {
  publishStatus,
  PUBLISH_STRATEGIES,
  type PublishCursor,
  type PublishOptions,
  type PublishResult,
  type PublishStrategy,
} from '../events/publish.js';
export { readCursor, writeCursor } from '../events/cursor-store.js';
