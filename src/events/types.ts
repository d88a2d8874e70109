// Types of the event log and the status snapshot. schemas/event.schema.json is the published
// contract of one log line; these types mirror it for TypeScript callers.
import type { PlanCounts } from '../state/plan.js';

export const EVENT_ACTORS = ['user', 'agent', 'system', 'tool'] as const;

/** Who caused a fact. */
export type EventActor = (typeof EVENT_ACTORS)[number];

/** Fields every event has. Type-specific fields sit next to them (flat). */
export interface EventBase {
  /** Unique and increasing position in the log, assigned by the appender. */
  seq: number;
  /** ISO 8601 UTC. */
  at: string;
  type: string;
  actor: EventActor;
  id?: string;
  causation_id?: string;
  correlation_id?: string;
}

/** One line of `.agent/log/events.jsonl`. */
export interface AgentEvent extends EventBase {
  [field: string]: unknown;
}

/** What a producer hands to the appender: everything but `seq` (and `at`/`actor` are optional). */
export interface EventInput {
  type: string;
  actor?: EventActor;
  at?: string;
  [field: string]: unknown;
}

export type { PlanCounts };

/** What the status knows about one tool. */
export interface ToolStats {
  calls: number;
  failures: number;
  /** Failures since the last success. */
  consecutive_failures: number;
  /** Calls in a row that reported `new_results: 0`. */
  no_new_results: number;
  /** tool.started events not yet matched by a tool.finished (not counted twice). */
  in_flight: number;
  /** The seq of the last event about this tool (for ordering by recency). */
  last_seq: number;
  last_artifact?: string;
}

export interface BudgetCounter {
  /** The limit set by the last budget.set, or null when none was set. */
  limit: number | null;
  /** Used since that budget.set (or since the start when none). */
  used: number;
}

/** The status snapshot: every count the model need not compute; cached in `.agent/log/status.json`. */
export interface StatusSnapshot {
  version: 1;
  /** The seq of the last event folded in (0 when none). */
  seq: number;
  /** Time of the first and the last event folded in. */
  first_at: string | null;
  last_at: string | null;
  events: number;
  task: {
    goal: string | null;
    stage: string | null;
    next_action: string | null;
    step: { id: string; title: string | null } | null;
    plan: PlanCounts | null;
  };
  cwd: string | null;
  tools: Record<string, ToolStats>;
  /** Every tool call counted (the sum over `tools`). */
  tool_calls: number;
  verification: {
    /** Null when the runner's output gave no counts (then `exit_code` says how it ended). */
    passed: number | null;
    failed: number | null;
    exit_code: number | null;
    skipped: number | null;
    command: string | null;
    artifact: string | null;
    seq: number;
    at: string;
  } | null;
  budget: { tool_calls: BudgetCounter; tokens: BudgetCounter };
  checkpoint: {
    seq: number;
    at: string;
    summary: string | null;
    /** Where it left the tree (its state commit, else HEAD) and on which branch; absent: unknown. */
    head?: string | null;
    branch?: string | null;
  } | null;
  /** Tool calls since the last checkpoint (or since the start when there is none). */
  tool_calls_since_checkpoint: number;
  permissions: { requested: number; granted: number; denied: number; last_denied: string | null };
  /** Files modified since the last checkpoint (newest last, capped), and how many in all. */
  files: { modified: string[]; count: number };
  boots: number;
  /** Boots in a row with no progress, as the last boot counted (0 again at an edit, task or plan
   *  change, step, checkpoint or passing tests); `status` judges restart loops from recovery.json. */
  boots_since_progress: number;
  compactions: number;
  errors: { count: number; last: string | null };
  interrupts: number;
  /** The last branch switch or merge the git hooks recorded (git.checkout, git.merge). */
  git: {
    kind: 'checkout' | 'merge';
    branch: string | null;
    /** The commit HEAD moved to. */
    head: string | null;
    seq: number;
    at: string;
  } | null;
}

/** A branch switch or a merge, as the post-checkout and post-merge hooks record it. */
export type GitState = NonNullable<StatusSnapshot['git']>;
