// Pure plan operations on a progress value (the store applies them under the lock).
import { UsageError } from '../errors.js';
import type { PlanItem, PlanStatus, Progress } from '../types.js';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** How a plan item's status is drawn in lists (`plan list`, the boot prompt). */
export const PLAN_STATUS_ICONS: Record<PlanStatus, string> = {
  pending: '[ ]',
  running: '[>]',
  blocked: '[!]',
  done: '[x]',
  skipped: '[-]',
  failed: '[F]',
};

// Random, not the next number: branches, clones and agents adding at once never pick one id.
/** A new item's id, `t-` and five random base-36 characters (`t-k3f9a`), not yet in `plan`. */
export function newPlanId(plan: readonly PlanItem[], random: () => number = Math.random): string {
  for (;;) {
    const n = Math.floor(random() * 36 ** 5);
    const id = `t-${n.toString(36).padStart(5, '0')}`;
    if (!plan.some((item) => item.id === id)) return id;
  }
}

/** Finds a plan item or throws a UsageError that lists the ids that exist. */
export function findPlanItem(progress: Progress, id: string): PlanItem {
  const item = progress.plan?.find((p) => p.id === id);
  if (item) return item;
  const ids = (progress.plan ?? []).map((p) => p.id);
  throw new UsageError(`no plan item "${id}"`, {
    hint: ids.length
      ? `use one of: ${ids.slice(0, 20).join(', ')}`
      : 'add one with `agent-state plan add "..."`',
  });
}

export interface AddPlanItem {
  title: string;
  id?: string;
  /** Insert after this id (default: at the end). */
  after?: string;
  dependsOn?: string[];
}

// One line, or a usage error.
function planTitle(text: string): string {
  const title = text.replace(/\s+/g, ' ').trim();
  if (title === '')
    throw new UsageError('the plan item title is empty', {
      hint: 'describe the step: plan add "Write the parser"',
    });
  return title;
}

/** Adds a pending plan item; returns it. */
export function addPlanItem(progress: Progress, input: AddPlanItem): PlanItem {
  const plan = (progress.plan ??= []);
  const title = planTitle(input.title);
  const id = input.id ?? newPlanId(plan);
  if (!ID_PATTERN.test(id))
    throw new UsageError(`"${id}" is not a valid id`, {
      hint: 'use letters, digits, dot, dash or underscore (at most 64), starting with a letter or digit',
    });
  if (plan.some((p) => p.id === id))
    throw new UsageError(`plan id "${id}" already exists`, {
      hint: 'pick another --id or leave it out to get a new one',
    });
  for (const dep of input.dependsOn ?? []) findPlanItem(progress, dep);
  const item: PlanItem = { id, title, status: 'pending' };
  if (input.dependsOn?.length) item.depends_on = [...new Set(input.dependsOn)];
  const index =
    input.after === undefined ? plan.length : plan.indexOf(findPlanItem(progress, input.after)) + 1;
  plan.splice(index, 0, item);
  return item;
}

/** Sets an item's status and note; `running` makes it the current step, done/skipped ends it. */
export function setPlanStatus(
  progress: Progress,
  id: string,
  status: PlanStatus,
  note?: string,
): PlanItem {
  const item = findPlanItem(progress, id);
  item.status = status;
  if (note !== undefined) {
    if (note.trim() === '') delete item.note;
    else item.note = note.trim();
  }
  if (status === 'running' && progress.current_step?.id !== id)
    progress.current_step = { id, objective: item.title };
  if (MET.has(status) && progress.current_step?.id === id) progress.current_step = null;
  return item;
}

// A need is met once its item is done, or skipped: a dropped step holds nothing back.
const MET = new Set<PlanStatus>(['done', 'skipped']);

/** The pending items whose needs (depends_on) are all met: what can be started now. */
export function readyItems(plan: readonly PlanItem[] = []): PlanItem[] {
  const status = new Map(plan.map((item) => [item.id, item.status]));
  return plan.filter(
    (item) =>
      item.status === 'pending' &&
      (item.depends_on ?? []).every((id) => MET.has(status.get(id) as PlanStatus)),
  );
}

/** The first few ready items on one line: `t3 Write the parser · t4 Docs · and 2 more`. */
export function readyLine(ready: readonly PlanItem[], max = 5): string {
  const shown = ready.slice(0, max).map((item) => `${item.id} ${item.title}`);
  if (ready.length > max) shown.push(`and ${ready.length - max} more`);
  return shown.join(' · ');
}

/** A cycle of needs in the plan, as ids with the first repeated at the end; null when none. */
export function findCycle(plan: readonly PlanItem[]): string[] | null {
  const needs = new Map(plan.map((item) => [item.id, item.depends_on ?? []]));
  const done = new Set<string>();
  const visit = (id: string, path: string[]): string[] | null => {
    const at = path.indexOf(id);
    if (at !== -1) return [...path.slice(at), id];
    if (done.has(id) || !needs.has(id)) return null;
    for (const need of needs.get(id)!) {
      const cycle = visit(need, [...path, id]);
      if (cycle) return cycle;
    }
    done.add(id);
    return null;
  };
  for (const item of plan) {
    const cycle = visit(item.id, []);
    if (cycle) return cycle;
  }
  return null;
}

/** Refuses a plan whose needs go round in a circle (nothing in it could ever be ready). */
export function assertNoCycle(plan: readonly PlanItem[]): void {
  const cycle = findCycle(plan);
  if (cycle)
    throw new UsageError(`the needs would go round in a circle: ${cycle.join(' → ')}`, {
      hint: "drop one of these needs (`agent-state plan needs ID ...` sets an item's needs)",
    });
}

/** Replaces an item's needs (none clears them); refuses an unknown id or a cycle. */
export function setPlanNeeds(progress: Progress, id: string, needs: readonly string[]): PlanItem {
  const item = findPlanItem(progress, id);
  for (const need of needs) findPlanItem(progress, need);
  if (needs.length) item.depends_on = [...new Set(needs)];
  else delete item.depends_on;
  assertNoCycle(progress.plan ?? []);
  return item;
}

/** Plan items per status, and in all. */
export type PlanCounts = Record<PlanStatus, number> & { total: number };

/** Counts plan items by status (every status present, zero when unused). */
export function countPlan(plan: readonly PlanItem[] = []): PlanCounts {
  const zero = Object.keys(PLAN_STATUS_ICONS).map((status) => [status, 0]);
  const counts = { total: plan.length, ...Object.fromEntries(zero) } as PlanCounts;
  for (const item of plan) counts[item.status]++;
  return counts;
}

/** Gives a plan item a new title; returns it. */
export function retitlePlanItem(progress: Progress, id: string, title: string): PlanItem {
  const item = findPlanItem(progress, id);
  item.title = planTitle(title);
  if (progress.current_step?.id === id) progress.current_step.objective = item.title;
  return item;
}

/** Removes a plan item with its completion marker, the dependencies on it and its step. */
export function removePlanItem(progress: Progress, id: string): PlanItem {
  const item = findPlanItem(progress, id);
  progress.plan = progress.plan!.filter((p) => p !== item);
  for (const other of progress.plan) {
    if (!other.depends_on?.includes(id)) continue;
    other.depends_on = other.depends_on.filter((d) => d !== id);
    if (other.depends_on.length === 0) delete other.depends_on;
  }
  if (progress.markers) delete progress.markers[id];
  if (progress.current_step?.id === id) progress.current_step = null;
  return item;
}
