// Claims on plan items (pure): who works on what, whether a claim is live, and the rules every
// write obeys (another's live claim refuses unless forced; own changes renew; finishing ends it).
import { ClaimedError, UsageError } from '../errors.js';
import { findPlanItem } from '../state/plan.js';
import type { Claim, PlanItem, Progress } from '../types.js';

/** A claim judged at a given time: the typed shape `plan list`, `status --all` and the UI show. */
export interface ClaimState extends Claim {
  item: string;
  /** Milliseconds since the claim was made or renewed. */
  age_ms: number;
  /** When it expires (or expired). */
  expires_at: string;
  expired: boolean;
}

/** What judging claims needs: the clock and agents.claim_expire_minutes. */
export interface ClaimClock {
  now: Date;
  expireMinutes: number;
}

/** Statuses that end a claim: nothing is left to work on. */
const FINISHED: ReadonlySet<PlanItem['status']> = new Set(['done', 'skipped']);

/** The state of an item's claim, or null when it has none. */
export function claimState(item: PlanItem, clock: ClaimClock): ClaimState | null {
  const claim = item.claim;
  if (!claim) return null;
  const at = Date.parse(claim.at);
  const expires = at + clock.expireMinutes * 60_000;
  return {
    item: item.id,
    agent: claim.agent,
    at: claim.at,
    age_ms: Math.max(0, clock.now.getTime() - at),
    expires_at: new Date(expires).toISOString(),
    expired: clock.now.getTime() >= expires,
  };
}

/** Every claim in the plan, live and expired, in plan order. */
export function planClaims(progress: Progress, clock: ClaimClock): ClaimState[] {
  return (progress.plan ?? []).flatMap((item) => claimState(item, clock) ?? []);
}

/** "12m", "3h", "2d": a short duration for claim ages. */
export function shortDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 120) return `${minutes}m`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h`;
  return `${Math.round(minutes / 1440)}d`;
}

/** How a claim reads in lists: `claimed by bob 12m ago` / `claim by bob expired 3h ago`. */
export function describeClaim(state: ClaimState, now: Date): string {
  if (!state.expired) return `claimed by ${state.agent} ${shortDuration(state.age_ms)} ago`;
  const since = now.getTime() - Date.parse(state.expires_at);
  return `claim by ${state.agent} expired ${shortDuration(since)} ago`;
}

/** The error of a claim another agent holds (`tail`: what it forbids; empty: a claim). */
export function heldByError(state: ClaimState, tail: string, now: Date): ClaimedError {
  const left = Math.max(0, Date.parse(state.expires_at) - now.getTime());
  const already = tail === '' ? 'already ' : '';
  return new ClaimedError(
    `plan item ${state.item} is ${already}claimed by ${state.agent} (claimed ${shortDuration(state.age_ms)} ago, expires in ${shortDuration(left)})${tail}`,
    {
      hint: `leave it to ${state.agent} and take another item, or pass --force to override the claim`,
      details: {
        item: state.item,
        claimed_by: state.agent,
        claimed_at: state.at,
        expires_at: state.expires_at,
      },
    },
  );
}

/** What `plan claim` did. */
export interface ClaimResult {
  item: PlanItem;
  /** `claimed`, `renewed` (the agent held it already), or `taken` (over an expired or forced claim). */
  action: 'claimed' | 'renewed' | 'taken';
  /** The claim that was replaced, when one was. */
  previous: ClaimState | null;
}

/** Claims item `id` for `agent`; another agent's live claim refuses unless `force`. */
export function claimPlanItem(
  progress: Progress,
  id: string,
  agent: string | null,
  clock: ClaimClock,
  force = false,
): ClaimResult {
  if (agent === null)
    throw new UsageError('claiming a plan item needs an agent name', {
      hint: 'pass --agent NAME or set AGENT_STATE_AGENT=NAME (docs/multi-agent.md)',
    });
  const item = findPlanItem(progress, id);
  if (FINISHED.has(item.status))
    throw new UsageError(`plan item ${id} is ${item.status}: there is nothing left to claim`, {
      hint: 'reset it first (`agent-state plan reset ID`) if it must be worked on again',
    });
  const previous = claimState(item, clock);
  if (previous && previous.agent !== agent && !previous.expired && !force)
    throw heldByError(previous, '', clock.now);
  item.claim = { agent, at: clock.now.toISOString() };
  const action = !previous ? 'claimed' : previous.agent === agent ? 'renewed' : 'taken';
  return { item, action, previous: action === 'taken' ? previous : null };
}

/** Releases item `id`'s claim; another agent's live claim refuses unless `force`. */
export function releasePlanItem(
  progress: Progress,
  id: string,
  agent: string | null,
  clock: ClaimClock,
  force = false,
): { item: PlanItem; released: ClaimState | null } {
  const item = findPlanItem(progress, id);
  const previous = claimState(item, clock);
  if (!previous) return { item, released: null };
  if (previous.agent !== agent && !previous.expired && !force)
    throw heldByError(previous, `: only ${previous.agent} releases it`, clock.now);
  delete item.claim;
  return { item, released: previous };
}

// Another agent's live claim (here or `foreign`) refuses a status change or removal unless
// `force`; the claimer's own change renews it; done or skipped ends it.
/** The claim rules of a write `before` → `after` by `agent`; mutates `after`. */
export function applyClaimRules(
  before: Progress,
  after: Progress,
  agent: string | null,
  clock: ClaimClock,
  force = false,
  foreign: ReadonlyMap<string, ClaimState> = new Map(),
): void {
  const now = new Map((after.plan ?? []).map((item) => [item.id, item]));
  for (const was of before.plan ?? []) {
    const item = now.get(was.id);
    if (item?.status === was.status) continue;
    const elsewhere = foreign.get(was.id);
    if (elsewhere && elsewhere.agent !== agent && !force)
      throw heldByError(elsewhere, `: only ${elsewhere.agent} changes its status`, clock.now);
    if (!was.claim) continue;
    const state = claimState(was, clock)!;
    const mine = state.agent === agent;
    if (!mine && !state.expired && !force)
      throw heldByError(state, `: only ${state.agent} changes its status`, clock.now);
    if (!item) continue;
    if (FINISHED.has(item.status)) delete item.claim;
    else if (mine && item.claim?.agent === agent)
      item.claim = { agent, at: clock.now.toISOString() };
  }
}

/** Whether a write changes or removes an item's status (`claimedOnly`: of a claimed item). */
export function changesStatus(before: Progress, after: Progress, claimedOnly = false): boolean {
  const now = new Map((after.plan ?? []).map((item) => [item.id, item.status]));
  return (before.plan ?? []).some(
    (was) => (was.claim || !claimedOnly) && now.get(was.id) !== was.status,
  );
}
