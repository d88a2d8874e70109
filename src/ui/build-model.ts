// The page's data model from the Task Context (pure): state files, verify's findings, the event
// log, the evidence, the clock. `agent-state ui` and `report --markup` both show exactly this.
import type { OmittedFact } from '../boot/boot-fact.js';
import type { EvidenceEntry } from '../evidence/evidence-file.js';
import { redactValue } from '../text/redact.js';
import { computeSignals, type SignalOptions } from '../events/signals.js';
import { withTaskState } from '../events/task-state.js';
import type { AgentEvent, StatusSnapshot } from '../events/types.js';
import type { MarkerCheck } from '../markers/check-markers.js';
import { DEFAULT_CONFIG } from '../state/config.js';
import type { ForbiddenMatcher } from '../state/forbidden.js';
import type { Config, Goals, PlanItem, Progress, Warning } from '../types.js';
import type { StateProblem } from '../verify/read-state-checked.js';
import type { VerifyReport } from '../verify/verify.js';
import { describeEvent } from './describe-event.js';
import type { LogView } from './log-follower.js';
import type * as M from './model.js';
import type { TimelinePage } from '../events/read-log.js';

/** Everything the page is made of, read from disk by read-model.ts. */
export interface UiInput {
  now: Date;
  root: string;
  /** `agent-state <version>`. */
  generator: string;
  goals: Goals | null;
  progress: Progress | null;
  config: Config | null;
  problems: StateProblem[];
  warnings: Warning[];
  evidence: EvidenceEntry[];
  /** The artifact paths (repository-relative) that exist on disk. */
  presentArtifacts: ReadonlySet<string>;
  /** What verify found; null when the state files are invalid. */
  report: Pick<VerifyReport, 'markers' | 'drift' | 'findings' | 'last_checkpoint'> | null;
  log: LogView;
  /** The timeline page to show (the newest events unless a filter or an older page was asked for). */
  timeline: TimelinePage & { types: string[] };
  /** The Forbidden globs compiled, to flag edits of Forbidden paths. */
  forbidden?: ForbiddenMatcher;
  /**
   * What `status` also knows besides the log (src/events/signal-facts.ts): which Forbidden edits
   * still stand, and whether a restart loop holds. Without it, every Forbidden edit shows.
   */
  facts?: Pick<SignalOptions, 'stillChanged' | 'restartLoop'>;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

// The fields `keys` of `value`, in that order (the order the model's JSON shows them in).
const pick = <T, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>;

// Owners come with plan claims (several agents on one task): the item's owner, or its claim's.
function ownerOf(item: PlanItem): string | null {
  const record = item as unknown as Record<string, unknown>;
  const claim = record.claim as Record<string, unknown> | undefined;
  return (
    text(record.owner) ??
    text(record.claimed_by) ??
    (claim && typeof claim === 'object' ? (text(claim.agent) ?? text(claim.by)) : null)
  );
}

function planOf(progress: Progress | null, markers: readonly MarkerCheck[]): M.UiPlanItem[] {
  const checks = new Map(markers.map((m) => [m.id, m]));
  const currentId = progress?.current_step?.id ?? null;
  return (progress?.plan ?? []).map((item) => {
    const check = checks.get(item.id);
    const stored = progress?.markers?.[item.id];
    return {
      ...pick(item, 'id', 'title', 'status'),
      owner: ownerOf(item),
      note: item.note ?? null,
      depends_on: item.depends_on ?? [],
      current: currentId === item.id,
      marker:
        check && check.state !== 'missing'
          ? {
              ...pick(check, 'state', 'at', 'files'),
              changed: check.changed.map((c) => pick(c, 'path', 'reason')),
              commit: stored?.commit ?? null,
              ...(check.problem ? { problem: check.problem.what } : {}),
            }
          : null,
    };
  });
}

function nowOf(progress: Progress | null): M.UiNow {
  const step = progress?.current_step;
  return {
    stage: progress?.stage ?? null,
    next_action: progress?.next_action ?? null,
    step: step
      ? {
          id: step.id ?? null,
          objective: step.objective ?? null,
          expected_output: step.expected_output ?? null,
          allowed_tools: step.allowed_tools ?? [],
          denied_tools: step.denied_tools ?? [],
          file_scopes: step.file_scopes ?? [],
          constraints: step.constraints ?? [],
        }
      : null,
    reminders: progress?.reminders ?? [],
    memory: { durable: progress?.memory?.durable ?? [], working: progress?.memory?.working ?? [] },
    // The newest record is the next action itself.
    recent_next_actions: [...(progress?.stamp?.recent_next_actions ?? [])]
      .reverse()
      .filter((r, i) => i > 0 || r.text !== progress?.next_action),
  };
}

function statusOf(s: StatusSnapshot): M.UiStatus {
  const limited = (c: { limit: number | null; used: number }) =>
    c.limit === null ? null : { limit: c.limit, used: c.used };
  const v = s.verification;
  return {
    ...pick(s, 'events', 'first_at', 'last_at', 'cwd', 'tool_calls', 'tool_calls_since_checkpoint'),
    tools: Object.entries(s.tools)
      .sort((a, b) => b[1].last_seq - a[1].last_seq)
      .map(([name, t]) => ({
        name,
        ...pick(t, 'calls', 'failures', 'consecutive_failures', 'no_new_results'),
        last_artifact: t.last_artifact ?? null,
      })),
    verification: v && pick(v, 'passed', 'failed', 'exit_code', 'command', 'artifact', 'at'),
    budget: { tool_calls: limited(s.budget.tool_calls), tokens: limited(s.budget.tokens) },
    ...pick(s, 'checkpoint', 'permissions'),
    files_modified: [...s.files.modified].reverse(),
    files_modified_count: s.files.count,
    ...pick(s, 'boots', 'boots_since_progress', 'compactions', 'errors', 'interrupts'),
    git: s.git && pick(s.git, 'kind', 'branch', 'head', 'at'),
  };
}

function evidenceOf(all: readonly EvidenceEntry[], present: ReadonlySet<string>): M.UiEvidence[] {
  return [...all].reverse().map((e) => ({
    ...pick(e, 'id', 'at', 'kind', 'summary', 'body', 'file'),
    redactions: e.redactions ?? 0,
    truncated_bytes: e.truncated_bytes ?? 0,
    refs: (e.refs ?? []).map((r) => ({
      ...pick(r, 'path', 'sha256'),
      bytes: r.bytes ?? null,
      present: present.has(r.path),
    })),
  }));
}

function driftOf(report: UiInput['report']): M.UiDrift {
  const drift = report?.drift ?? null;
  return {
    checkpoint_at: report?.last_checkpoint ?? null,
    drifted: drift?.drifted ?? false,
    head: drift?.head ?? null,
    branch: drift?.branch ?? null,
    files: drift?.files ?? [],
    key_files: drift?.key_files ?? [],
    runtime: drift?.runtime ?? [],
    unlisted: drift?.unlisted ?? [],
    findings: (report?.findings ?? []).map((f) => pick(f, 'kind', 'message', 'fix')),
  };
}

function omittedOf(value: unknown): OmittedFact[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .filter((o): o is Record<string, unknown> => o !== null && typeof o === 'object')
    .map((o) => ({
      kind: String(o.kind ?? '') as OmittedFact['kind'],
      count: typeof o.count === 'number' ? o.count : 0,
      ids: Array.isArray(o.ids) ? o.ids.map(String) : [],
      how: String(o.how ?? ''),
    }));
}

function bootOf(event: AgentEvent | null): M.UiBoot | null {
  if (!event) return null;
  return {
    seq: event.seq,
    at: event.at,
    level: typeof event.level === 'number' ? event.level : null,
    source: text(event.source),
    omitted: omittedOf(event.omitted),
  };
}

/** The git commands that bring a checkpoint back, each with what it does. */
export function restoreCommands(
  commit: string | null,
  head: string | null,
): M.UiCheckpoint['restore'] {
  if (commit)
    return [
      {
        command: `git restore --source ${commit} -- .agent/state`,
        what: "bring back this checkpoint's task state; the rest of the tree stays as it is",
      },
      {
        command: `git switch --detach ${commit}`,
        what: 'look at the whole tree as committed (git refuses if it would lose your changes)',
      },
    ];
  if (head)
    return [
      {
        command: `git switch --detach ${head}`,
        what: 'the commits as they were; the state and uncommitted files of that moment were not committed (use `checkpoint --commit`)',
      },
    ];
  return [];
}

function checkpointsOf(events: readonly AgentEvent[], progress: Progress | null): M.UiCheckpoint[] {
  const lastHead = progress?.fingerprint?.git?.head ?? null;
  return events.map((e, i) => {
    const commit = text(e.commit);
    // Events written before checkpoints recorded HEAD: the newest one's is in the fingerprint.
    const head = text(e.head) ?? (i === 0 ? lastHead : null);
    return {
      seq: e.seq,
      at: e.at,
      summary: text(e.summary),
      evidence: text(e.evidence),
      commit,
      head,
      restore: restoreCommands(commit, head),
    };
  });
}

/** A timeline page as the page shows it; `forbidden` flags edits of Forbidden paths. */
export function describeTimeline(
  page: UiInput['timeline'],
  forbidden?: ForbiddenMatcher,
): M.UiTimeline {
  return { ...page, events: page.events.map((e) => describeEvent(e, forbidden)) };
}

/**
 * The page's model (pure: the same input gives the same model). Secrets are redacted from the
 * data, as the status bar and the boot do: text written before redaction-on-write still holds them.
 */
export function buildUiModel(input: UiInput): M.UiModel {
  const { goals, progress } = input;
  const config = input.config ?? DEFAULT_CONFIG;
  const snapshot = progress
    ? withTaskState(input.log.snapshot, { anchor: goals?.anchor ?? '', progress })
    : input.log.snapshot;
  const signals = computeSignals(
    snapshot,
    { ...config.signals, stall_threshold: config.boot.stall_threshold },
    { now: input.now, forbidden: input.forbidden, ...input.facts },
  );
  const warnings = [...input.warnings, ...input.log.warnings].map(
    (w) => `${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`,
  );
  return redactValue<M.UiModel>({
    version: 1,
    generator: input.generator,
    generated_at: input.now.toISOString(),
    root: input.root,
    seq: input.log.snapshot.seq,
    revision: progress?.revision ?? null,
    problems: input.problems.map((p) => pick(p, 'at', 'message', 'hint')),
    warnings,
    goal: goals && {
      ...pick(goals, 'title', 'anchor'),
      success_criteria: goals.successCriteria,
      constraints: goals.constraints,
      forbidden: goals.forbidden.map((f) => pick(f, 'text', 'globs')),
      non_goals: goals.nonGoals,
      extra: goals.extraSections.map((s) => pick(s, 'heading', 'body')),
    },
    now: nowOf(progress),
    plan: planOf(progress, input.report?.markers ?? []),
    signals: signals.map((s) => pick(s, 'id', 'level', 'message')),
    status: statusOf(snapshot),
    timeline: describeTimeline(input.timeline, input.forbidden),
    evidence: evidenceOf(input.evidence, input.presentArtifacts),
    drift: driftOf(input.report),
    boot: bootOf(input.log.lastBoot),
    checkpoints: checkpointsOf(input.log.checkpoints, progress),
  });
}
