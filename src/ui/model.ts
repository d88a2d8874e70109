// The page's data model, plain JSON: built by build-model.ts (pure), rendered by render-page.ts.
// Text in it is as stored: escaping happens only when it is rendered.
import type { Drift } from '../fingerprint/diff.js';
import type { OmittedFact } from '../boot/boot-fact.js';
import type { EvidenceEntry, EvidenceRef } from '../evidence/evidence-file.js';
import type { StatusSignal } from '../events/signals.js';
import type { GitState, StatusSnapshot, ToolStats } from '../events/types.js';
import type { MarkerCheck, MarkerChange } from '../markers/check-markers.js';
import type * as T from '../types.js';
import type { StateProblem } from '../verify/read-state-checked.js';

/** The goal layer: always at the top of the page. */
export interface UiGoal {
  title: string;
  anchor: string;
  success_criteria: string[];
  constraints: string[];
  forbidden: T.ForbiddenEntry[];
  non_goals: string[];
  /** Sections of goals.md the tool does not know, verbatim. */
  extra: T.ExtraSection[];
}

/** The current step and its limits: a field it does not set is null, a list it does not set empty. */
export type UiStep = {
  [K in keyof T.CurrentStep]-?: NonNullable<T.CurrentStep[K]> extends string[]
    ? string[]
    : string | null;
};

/** Where the task stands now. */
export interface UiNow {
  stage: string | null;
  next_action: string | null;
  step: UiStep | null;
  /** One-shot notes the next boot shows. */
  reminders: T.Reminder[];
  memory: { durable: string[]; working: string[] };
  /** The previous next actions, newest first. */
  recent_next_actions: T.NextActionRecord[];
}

/** A completion marker judged against the files now. */
export interface UiMarker extends Pick<MarkerCheck, 'state' | 'at' | 'files'> {
  changed: Pick<MarkerChange, 'path' | 'reason'>[];
  commit: string | null;
  /** Why an unverifiable marker with files cannot be checked. */
  problem?: string;
}

/** One plan item. */
export interface UiPlanItem extends Pick<T.PlanItem, 'id' | 'title' | 'status'> {
  /** Who holds it (plan owners and claims), or null. */
  owner: string | null;
  note: string | null;
  depends_on: string[];
  /** Whether it is the current step. */
  current: boolean;
  marker: UiMarker | null;
}

/** A control signal: the fact and what to do, in one sentence. */
export type UiSignal = Pick<StatusSignal, 'id' | 'level' | 'message'>;

/** One tool's counts. */
export interface UiTool extends Pick<
  ToolStats,
  'calls' | 'failures' | 'consecutive_failures' | 'no_new_results'
> {
  name: string;
  last_artifact: string | null;
}

type Limited = { limit: number; used: number } | null;
type Reshaped = 'version' | 'seq' | 'task' | 'tools' | 'verification' | 'budget' | 'files' | 'git';

/** The status bar's snapshot. */
export interface UiStatus extends Omit<StatusSnapshot, Reshaped> {
  tools: UiTool[];
  verification: Omit<NonNullable<StatusSnapshot['verification']>, 'skipped' | 'seq'> | null;
  budget: { tool_calls: Limited; tokens: Limited };
  files_modified: string[];
  files_modified_count: number;
  git: Omit<GitState, 'seq'> | null;
}

/** What kind of fact an event is, for its colour and the filter. */
export type UiEventKind =
  | 'tool'
  | 'failure'
  | 'file'
  | 'forbidden'
  | 'denied'
  | 'boot'
  | 'compaction'
  | 'checkpoint'
  | 'test'
  | 'task'
  | 'other';

/** One line of the timeline. */
export interface UiEvent {
  seq: number;
  at: string;
  type: string;
  actor: string;
  kind: UiEventKind;
  /** One line saying what happened. */
  summary: string;
  /** The event as stored (JSON, cut when huge), shown on demand. */
  raw: string;
}

/** A page of the timeline, newest first. */
export interface UiTimeline {
  events: UiEvent[];
  /** Whether older events match the filter. */
  more: boolean;
  /** The type filter this page was read with (empty: every type). */
  types: string[];
}

/** An evidence entry: the headline, the body on demand, the raw artifacts it refers to. */
export interface UiEvidence extends Pick<
  EvidenceEntry,
  'id' | 'at' | 'kind' | 'summary' | 'body' | 'file'
> {
  redactions: number;
  truncated_bytes: number;
  refs: (Pick<EvidenceRef, 'path' | 'sha256'> & { bytes: number | null; present: boolean })[];
}

/** Drift since the last checkpoint, with what verify found (each finding with its fix). */
export interface UiDrift extends Omit<Drift, 'since'> {
  /** When the last checkpoint was recorded; null before the first. */
  checkpoint_at: string | null;
  findings: { kind: string; message: string; fix: string }[];
}

/** The last boot and what it left out. */
export interface UiBoot {
  seq: number;
  at: string;
  level: number | null;
  source: string | null;
  /** Null when the boot event does not say (written before boots recorded it). */
  omitted: OmittedFact[] | null;
}

/** A checkpoint and how to go back to it. */
export interface UiCheckpoint {
  seq: number;
  at: string;
  summary: string | null;
  evidence: string | null;
  /** The commit that holds the checkpoint's state (`checkpoint --commit`). */
  commit: string | null;
  /** Where HEAD was when it was recorded. */
  head: string | null;
  /** git commands that bring it back, each with what it does. */
  restore: { command: string; what: string }[];
}

/** The whole page. */
export interface UiModel {
  version: 1;
  /** `agent-state <version>`. */
  generator: string;
  generated_at: string;
  root: string;
  /** The last event seq folded in. */
  seq: number;
  /** progress.yaml's revision; null when it could not be read. */
  revision: number | null;
  /** State files that do not parse or validate: what the rest of the page could not show. */
  problems: Pick<StateProblem, 'at' | 'message' | 'hint'>[];
  warnings: string[];
  goal: UiGoal | null;
  now: UiNow;
  plan: UiPlanItem[];
  signals: UiSignal[];
  status: UiStatus;
  timeline: UiTimeline;
  evidence: UiEvidence[];
  drift: UiDrift;
  boot: UiBoot | null;
  checkpoints: UiCheckpoint[];
}
