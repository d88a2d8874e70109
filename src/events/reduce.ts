// The reducer: folds events into the status snapshot. Pure and incremental, so the cached
// snapshot plus the events after its seq gives the same result as folding the whole log.
import { PLAN_STATUSES } from '../types.js';
import type { AgentEvent, PlanCounts, StatusSnapshot, ToolStats } from './types.js';

/** How many modified files the snapshot remembers by name (the count goes on). */
export const MAX_REMEMBERED_FILES = 20;

/** The snapshot of an empty log. */
export function emptySnapshot(): StatusSnapshot {
  return {
    version: 1,
    seq: 0,
    first_at: null,
    last_at: null,
    events: 0,
    task: { goal: null, stage: null, next_action: null, step: null, plan: null },
    cwd: null,
    tools: Object.create(null) as Record<string, ToolStats>,
    tool_calls: 0,
    verification: null,
    budget: { tool_calls: { limit: null, used: 0 }, tokens: { limit: null, used: 0 } },
    checkpoint: null,
    tool_calls_since_checkpoint: 0,
    permissions: { requested: 0, granted: 0, denied: 0, last_denied: null },
    files: { modified: [], count: 0 },
    boots: 0,
    boots_since_progress: 0,
    compactions: 0,
    errors: { count: 0, last: null },
    interrupts: 0,
    git: null,
  };
}

// A deep copy whose tools map has no prototype, so a tool named "__proto__" is just a name.
function copySnapshot(snapshot: StatusSnapshot): StatusSnapshot {
  const copy = JSON.parse(JSON.stringify(snapshot)) as StatusSnapshot;
  const tools = Object.create(null) as Record<string, ToolStats>;
  for (const [name, stats] of Object.entries(copy.tools ?? {})) tools[name] = stats;
  copy.tools = tools;
  copy.git ??= null; // cached by a version without it
  return copy;
}

/** Whether a value looks like a snapshot this version can continue from. */
export function isSnapshot(value: unknown): value is StatusSnapshot {
  const s = value as Partial<Record<keyof StatusSnapshot, unknown>> | null;
  const objects = ['tools', 'task', 'budget', 'permissions', 'files'] as const;
  return (
    typeof s === 'object' &&
    s?.version === 1 &&
    typeof s.seq === 'number' &&
    s.tools !== null &&
    objects.every((key) => typeof s[key] === 'object')
  );
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

function planCounts(value: unknown): PlanCounts | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const keys = ['total', ...PLAN_STATUSES] as const;
  return Object.fromEntries(keys.map((key) => [key, num(v[key]) ?? 0])) as PlanCounts;
}

function tool(s: StatusSnapshot, name: string): ToolStats {
  return (s.tools[name] ??= {
    calls: 0,
    failures: 0,
    consecutive_failures: 0,
    no_new_results: 0,
    in_flight: 0,
    last_seq: 0,
  });
}

function countCall(s: StatusSnapshot, stats: ToolStats): void {
  stats.calls++;
  s.tool_calls++;
  s.tool_calls_since_checkpoint++;
  s.budget.tool_calls.used++;
}

function toolStarted(s: StatusSnapshot, e: AgentEvent): void {
  if (typeof e.name !== 'string') return;
  const stats = tool(s, e.name);
  countCall(s, stats);
  stats.in_flight++;
  stats.last_seq = e.seq;
}

function toolFinished(s: StatusSnapshot, e: AgentEvent): void {
  if (typeof e.name !== 'string') return;
  const stats = tool(s, e.name);
  if (stats.in_flight > 0) stats.in_flight--;
  else countCall(s, stats);
  stats.last_seq = e.seq;
  if (e.ok === false) stats.failures++;
  stats.consecutive_failures = e.ok === false ? stats.consecutive_failures + 1 : 0;
  const found = num(e.new_results);
  if (found !== null) stats.no_new_results = found === 0 ? stats.no_new_results + 1 : 0;
  const artifact = str(e.artifact);
  if (artifact !== null) stats.last_artifact = artifact;
  const tokens = num(e.tokens);
  if (tokens !== null) s.budget.tokens.used += tokens;
}

function taskUpdated(s: StatusSnapshot, e: AgentEvent): void {
  s.task.goal = str(e.goal) ?? s.task.goal;
  s.task.stage = str(e.stage) ?? s.task.stage;
  s.task.next_action = str(e.next_action) ?? s.task.next_action;
}

function planUpdated(s: StatusSnapshot, e: AgentEvent): void {
  s.task.plan = planCounts(e.plan) ?? s.task.plan;
  if (typeof e.item !== 'string') return;
  if (e.status === 'running') s.task.step = { id: e.item, title: str(e.title) };
  else if (s.task.step?.id === e.item) s.task.step = null;
}

function verificationFinished(s: StatusSnapshot, e: AgentEvent): void {
  const exitCode = num(e.exit_code);
  const counted = num(e.passed) !== null || num(e.failed) !== null;
  s.verification = {
    passed: counted ? (num(e.passed) ?? 0) : null,
    failed: counted ? (num(e.failed) ?? 0) : null,
    exit_code: exitCode,
    skipped: num(e.skipped),
    command: str(e.command),
    artifact: str(e.artifact),
    seq: e.seq,
    at: e.at,
  };
  if (counted ? s.verification.failed === 0 : exitCode === 0) s.boots_since_progress = 0;
}

function fileModified(s: StatusSnapshot, e: AgentEvent): void {
  if (typeof e.path !== 'string') return;
  // An edit by the agent moves the task; `watch` only saw someone's change.
  if (e.tool !== 'watch') s.boots_since_progress = 0;
  const path = e.path;
  s.files.count++;
  const files = s.files.modified.filter((f) => f !== path);
  files.push(path);
  s.files.modified = files.slice(-MAX_REMEMBERED_FILES);
}

function budgetSet(s: StatusSnapshot, e: AgentEvent): void {
  const calls = num(e.tool_calls);
  const tokens = num(e.tokens);
  if (calls !== null) s.budget.tool_calls = { limit: calls, used: 0 };
  if (tokens !== null) s.budget.tokens = { limit: tokens, used: 0 };
}

type Fold = (s: StatusSnapshot, e: AgentEvent) => StatusSnapshot | void;

// What each known type does to the snapshot (a private copy). A handler that returns a snapshot
// replaces the current one. Unknown types and malformed fields change nothing.
const FOLDS = {
  'task.created': taskUpdated,
  'task.updated': taskUpdated,
  'plan.updated': planUpdated,
  'step.started': (s, e) => {
    if (typeof e.step === 'string') s.task.step = { id: e.step, title: str(e.title) };
    s.task.plan = planCounts(e.plan) ?? s.task.plan;
  },
  'step.completed': (s, e) => {
    if (s.task.step?.id === e.step) s.task.step = null;
    s.task.plan = planCounts(e.plan) ?? s.task.plan;
  },
  'tool.started': toolStarted,
  'tool.finished': toolFinished,
  'cwd.changed': (s, e) => void (s.cwd = str(e.cwd) ?? s.cwd),
  'verification.finished': verificationFinished,
  'checkpoint.created': (s, e) => {
    const head = str(e.commit) ?? str(e.head);
    s.checkpoint = { seq: e.seq, at: e.at, summary: str(e.summary), head, branch: str(e.branch) };
    s.tool_calls_since_checkpoint = 0;
    s.files = { modified: [], count: 0 };
  },
  // A boot says how many boots in a row saw no progress (src/recovery/rules.ts); an older one
  // that does not is one more.
  boot: (s, e) => {
    s.boots++;
    s.boots_since_progress = num(e.stalled) ?? s.boots_since_progress + 1;
  },
  compaction: (s) => void s.compactions++,
  'file.modified': fileModified,
  'permission.requested': (s) => void s.permissions.requested++,
  'permission.granted': (s) => void s.permissions.granted++,
  'permission.denied': (s, e) => {
    s.permissions.denied++;
    s.permissions.last_denied = str(e.permission) ?? str(e.tool) ?? s.permissions.last_denied;
  },
  error: (s, e) => {
    s.errors.count++;
    s.errors.last = str(e.message) ?? s.errors.last;
  },
  'user.interrupted': (s) => void s.interrupts++,
  'budget.set': budgetSet,
  usage: (s, e) => void (s.budget.tokens.used += num(e.tokens) ?? 0),
  // The first line of a rotated log carries the snapshot of everything before it.
  'log.rotated': (_s, e) =>
    isSnapshot(e.snapshot) && e.snapshot.seq < e.seq ? copySnapshot(e.snapshot) : undefined,
  'git.checkout': (s, e) => {
    s.git = { kind: 'checkout', branch: str(e.branch), head: str(e.to), seq: e.seq, at: e.at };
  },
  'git.merge': (s, e) => {
    s.git = { kind: 'merge', branch: str(e.branch), head: str(e.head), seq: e.seq, at: e.at };
  },
} satisfies Record<string, Fold>;

/** The event types the reducer understands. Other types are kept in the log and ignored. */
export type KnownEventType = keyof typeof FOLDS;

export const KNOWN_EVENT_TYPES = Object.freeze(Object.keys(FOLDS)) as readonly KnownEventType[];

// Types that move the task, after which boots no longer count as a restart loop (as do an edit
// by the agent and passing tests).
const PROGRESS = new Set([
  'task.updated',
  'plan.updated',
  'step.started',
  'step.completed',
  'checkpoint.created',
]);

const hasFold = (type: string): type is KnownEventType => Object.hasOwn(FOLDS, type);

/**
 * Folds `events` into `previous` (null = the empty snapshot) and returns a new snapshot; the
 * input is not modified. Events at or below `previous.seq` are skipped, so replaying is harmless.
 */
export function reduceStatus(
  previous: StatusSnapshot | null,
  events: Iterable<AgentEvent>,
): StatusSnapshot {
  let s = previous ? copySnapshot(previous) : emptySnapshot();
  for (const e of events) {
    if (typeof e.seq !== 'number' || e.seq <= s.seq) continue;
    if (hasFold(e.type)) s = FOLDS[e.type](s, e) ?? s;
    if (PROGRESS.has(e.type)) s.boots_since_progress = 0;
    s.seq = e.seq;
    s.events++;
    s.first_at ??= e.at;
    s.last_at = e.at;
  }
  return s;
}
