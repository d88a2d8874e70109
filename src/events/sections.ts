// The status as the model sees it: named sections, each a small canonical value or null, which the
// delta compares and every format renders. No clock-dependent numbers (ages are rendered from
// timestamps), so the same facts hash the same and a publish with no new events prints nothing.
import { createHash } from '../text/lazy-crypto.js';
import type { StatusSignal } from './signals.js';
import type { BudgetCounter, PlanCounts, StatusSnapshot, ToolStats } from './types.js';

/** Section names, in rendering order: stable facts first, the most volatile last. */
export const STATUS_SECTIONS = [
  'task',
  'environment',
  'tools',
  'verification',
  'budget',
  'checkpoint',
  'permissions',
  'signals',
] as const;

export type SectionName = (typeof STATUS_SECTIONS)[number];

// The snapshot's fields `K`, optional and never null: a section leaves out what it does not know.
type Known<T, K extends keyof T> = { [P in K]?: NonNullable<T[P]> };

export type TaskSection = Known<StatusSnapshot['task'], 'goal' | 'stage' | 'next_action'> & {
  step?: { id: string; title?: string };
  plan?: Pick<PlanCounts, 'total' | 'done' | 'running' | 'blocked' | 'failed'>;
};

/** One tool in the status; zero counts are left out (they only cost tokens). */
export type ToolLine = { name: string; calls: number; artifact?: string } & Known<
  ToolStats,
  'failures' | 'consecutive_failures' | 'no_new_results'
>;

export type BudgetLine = { limit: number; used: number; left: number };

type VerificationSection = Known<
  NonNullable<StatusSnapshot['verification']>,
  'passed' | 'failed' | 'exit_code' | 'skipped' | 'command' | 'artifact'
>;

export interface StatusSections {
  task: TaskSection | null;
  environment: { cwd: string } | null;
  tools: { items: ToolLine[]; more: number } | null;
  verification: VerificationSection | null;
  budget: { tool_calls?: BudgetLine; tokens?: BudgetLine } | null;
  checkpoint: { seq: number; at: string; summary?: string } | null;
  permissions: { requested: number; granted: number; denied: number; last_denied?: string } | null;
  signals: StatusSignal[] | null;
}

/** What one rendering shows: the sections, the seq they cover and when. */
export interface StatusView {
  seq: number;
  generated_at: string;
  sections: StatusSections;
}

/** Tools listed by name in the status (most recently used first); the rest are counted. */
export const MAX_TOOLS_SHOWN = 5;

/** Signals shown (most urgent first); `status --json` lists them all. */
export const MAX_SIGNALS_SHOWN = 5;

const MAX_TEXT = 200;

/** Cuts long free text so that one field cannot blow the status budget. */
export function clip(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// Drops undefined fields so that equal facts serialize (and hash) identically.
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const clipped = (text: string | null | undefined, max?: number) =>
  text ? clip(text, max) : undefined;

function taskSection({ task: t }: StatusSnapshot): TaskSection | null {
  const plan = t.plan && t.plan.total > 0 ? t.plan : null;
  const task = compact<TaskSection>({
    goal: clipped(t.goal),
    stage: clipped(t.stage, 60),
    next_action: clipped(t.next_action),
    step: t.step ? compact({ id: t.step.id, title: clipped(t.step.title, 100) }) : undefined,
    plan: plan
      ? {
          total: plan.total,
          done: plan.done + plan.skipped,
          running: plan.running,
          blocked: plan.blocked,
          failed: plan.failed,
        }
      : undefined,
  });
  return Object.keys(task).length > 0 ? task : null;
}

function toolsSection(s: StatusSnapshot): StatusSections['tools'] {
  const all = Object.entries(s.tools)
    .filter(([, t]) => t.calls > 0)
    .sort(([, a], [, b]) => b.last_seq - a.last_seq);
  if (all.length === 0) return null;
  const items = all.slice(0, MAX_TOOLS_SHOWN).map(([name, t]) =>
    compact<ToolLine>({
      name: clip(name, 60),
      calls: t.calls,
      failures: t.failures || undefined,
      consecutive_failures: t.consecutive_failures || undefined,
      no_new_results: t.no_new_results || undefined,
      // The output is worth a look only while the tool keeps failing.
      artifact: t.consecutive_failures > 0 ? clipped(t.last_artifact, 160) : undefined,
    }),
  );
  return { items, more: all.length - items.length };
}

const budgetLine = ({ limit, used }: BudgetCounter): BudgetLine | undefined =>
  limit === null ? undefined : { limit, used, left: Math.max(0, limit - used) };

/** Projects a snapshot and its signals onto the sections. */
export function statusSections(
  snapshot: StatusSnapshot,
  signals: readonly StatusSignal[],
): StatusSections {
  const { verification: v, checkpoint: c, permissions: p } = snapshot;
  const budget = compact({
    tool_calls: budgetLine(snapshot.budget.tool_calls),
    tokens: budgetLine(snapshot.budget.tokens),
  });
  return {
    task: taskSection(snapshot),
    environment: snapshot.cwd ? { cwd: snapshot.cwd } : null,
    tools: toolsSection(snapshot),
    verification: v
      ? compact({
          passed: v.passed ?? undefined,
          failed: v.failed ?? undefined,
          exit_code:
            v.passed === null && v.failed === null ? (v.exit_code ?? undefined) : undefined,
          skipped: v.skipped ?? undefined,
          command: clipped(v.command, 120),
          artifact: clipped(v.artifact, 160),
        })
      : null,
    budget: Object.keys(budget).length > 0 ? budget : null,
    checkpoint: c ? compact({ seq: c.seq, at: c.at, summary: clipped(c.summary, 80) }) : null,
    permissions:
      p.requested + p.granted + p.denied > 0
        ? compact({
            requested: p.requested,
            granted: p.granted,
            denied: p.denied,
            last_denied: clipped(p.last_denied, 120),
          })
        : null,
    signals:
      signals.length > 0 ? signals.slice(0, MAX_SIGNALS_SHOWN).map((sig) => ({ ...sig })) : null,
  };
}

/** Whether every section is empty. */
export function isEmptyStatus(sections: StatusSections): boolean {
  return STATUS_SECTIONS.every((name) => sections[name] == null);
}

/**
 * full: a snapshot; replace: a snapshot that supersedes every earlier one; baseline: the first
 * snapshot of an epoch, later updated by deltas; delta: changes only; cleared: nothing applies.
 */
export type StatusRenderKind = 'full' | 'replace' | 'baseline' | 'delta' | 'cleared';

/** What a rendering contains, format-independently. */
export interface RenderPlan {
  kind: StatusRenderKind;
  epoch: number | null;
  view: StatusView;
  /** Sections to render in full, in order. */
  shown: SectionName[];
  /** Sections to declare void. */
  removed: SectionName[];
}

/** How `current` differs from what the consumer was last told (`previous`). */
export interface StatusDiff {
  /** Present before and now, with another value. */
  changed: SectionName[];
  /** Empty before, present now. */
  added: SectionName[];
  /** Present before, empty now: the model must be told it no longer applies. */
  removed: SectionName[];
  unchanged: SectionName[];
  /** Every section is empty now, and some were not: the whole status no longer applies. */
  cleared: boolean;
}

/** JSON with sorted keys: equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** `sha256:<hex>` of the sections' canonical JSON: the same facts always give the same hash. */
export function stableHash(sections: StatusSections): string {
  return `sha256:${createHash('sha256').update(canonicalJson(sections)).digest('hex')}`;
}

/** Compares section by section; `previous` null means the consumer was told nothing yet. */
export function diffStatus(previous: StatusSections | null, current: StatusSections): StatusDiff {
  const diff: StatusDiff = { changed: [], added: [], removed: [], unchanged: [], cleared: false };
  for (const name of STATUS_SECTIONS) {
    const before = previous?.[name] ?? null;
    const now = current[name] ?? null;
    if (before === null && now === null) diff.unchanged.push(name);
    else if (before === null) diff.added.push(name);
    else if (now === null) diff.removed.push(name);
    else if (canonicalJson(before) === canonicalJson(now)) diff.unchanged.push(name);
    else diff.changed.push(name);
  }
  diff.cleared = diff.removed.length > 0 && STATUS_SECTIONS.every((name) => current[name] == null);
  return diff;
}
