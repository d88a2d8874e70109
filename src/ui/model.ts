// The page's data model: everything `agent-state ui` and `report --markup` show, as plain JSON.
// A pure function of the Task Context (build-model.ts) makes it; a pure renderer turns it into
// HTML (render-page.ts). Text in it is as stored: escaping happens only when it is rendered.
import type { Drift } from '../fingerprint/diff.js';
import type { OmittedFact } from '../boot/omitted-fact.js';
import type { MarkerState } from '../markers/check-markers.js';
import type { PlanStatus } from '../types.js';

/** The goal layer: always at the top of the page. */
export interface UiGoal {
  title: string;
  anchor: string;
  success_criteria: string[];
  constraints: string[];
  forbidden: { text: string; globs: string[] }[];
  non_goals: string[];
  /** Sections of goals.md the tool does not know, verbatim. */
  extra: { heading: string; body: string }[];
}

/** The current step and its limits. */
export interface UiStep {
  id: string | null;
  objective: string | null;
  expected_output: string | null;
  allowed_tools: string[];
  denied_tools: string[];
  file_scopes: string[];
  constraints: string[];
}

/** Where the task stands now. */
export interface UiNow {
  stage: string | null;
  next_action: string | null;
  step: UiStep | null;
  /** One-shot notes the next boot shows. */
  reminders: { text: string; at: string }[];
  memory: { durable: string[]; working: string[] };
  /** The previous next actions, newest first. */
  recent_next_actions: { text: string; at: string }[];
}

/** A completion marker judged against the files now. */
export interface UiMarker {
  state: MarkerState;
  at: string | null;
  files: number;
  changed: { path: string; reason: string }[];
  commit: string | null;
  /** Why an unverifiable marker with files cannot be checked. */
  problem?: string;
}

/** One plan item. */
export interface UiPlanItem {
  id: string;
  title: string;
  status: PlanStatus;
  /** Who holds it (plan owners and claims), or null. */
  owner: string | null;
  note: string | null;
  depends_on: string[];
  /** Whether it is the current step. */
  current: boolean;
  marker: UiMarker | null;
}

/** A control signal: the fact and what to do, in one sentence. */
export interface UiSignal {
  id: string;
  level: 'stop' | 'warn';
  message: string;
}

/** One tool's counts. */
export interface UiTool {
  name: string;
  calls: number;
  failures: number;
  consecutive_failures: number;
  no_new_results: number;
  last_artifact: string | null;
}

/** The status bar's snapshot. */
export interface UiStatus {
  events: number;
  first_at: string | null;
  last_at: string | null;
  cwd: string | null;
  tool_calls: number;
  tool_calls_since_checkpoint: number;
  tools: UiTool[];
  verification: {
    passed: number | null;
    failed: number | null;
    exit_code: number | null;
    command: string | null;
    artifact: string | null;
    at: string;
  } | null;
  budget: {
    tool_calls: { limit: number; used: number } | null;
    tokens: { limit: number; used: number } | null;
  };
  checkpoint: { seq: number; at: string; summary: string | null } | null;
  permissions: { requested: number; granted: number; denied: number; last_denied: string | null };
  files_modified: string[];
  files_modified_count: number;
  boots: number;
  boots_since_progress: number;
  compactions: number;
  errors: { count: number; last: string | null };
  interrupts: number;
  git: { kind: string; branch: string | null; head: string | null; at: string } | null;
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
export interface UiEvidence {
  id: string;
  at: string;
  kind: string;
  summary: string;
  body: string;
  file: string;
  redactions: number;
  truncated_bytes: number;
  refs: { path: string; sha256: string; bytes: number | null; present: boolean }[];
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
  problems: { at: string; message: string; hint: string }[];
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
