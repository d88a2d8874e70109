// Claims on plan items (pure): who may claim, who may change a claimed item's status, expiry,
// and the own/shared split of a named agent's view.
import { describe, expect, it } from 'vitest';
import { checkAgentName, resolveAgent } from '../../src/state/agent-name.js';
import {
  applyClaimRules,
  claimPlanItem,
  claimState,
  describeClaim,
  planClaims,
  releasePlanItem,
} from '../../src/task/claims.js';
import { overlayProgress, splitProgress } from '../../src/task/own-state.js';
import { ClaimedError, UsageError } from '../../src/errors.js';
import { newPlanId } from '../../src/state/plan.js';
import type { Progress } from '../../src/types.js';

const t0 = new Date('2026-11-30T10:00:00.000Z');
const later = (minutes: number) => ({
  now: new Date(t0.getTime() + minutes * 60_000),
  expireMinutes: 120,
});
const progress = (): Progress => ({
  version: 1,
  revision: 1,
  plan: [
    { id: 't1', title: 'One', status: 'pending' },
    { id: 't2', title: 'Two', status: 'pending' },
  ],
});

describe('claims', () => {
  it('refuses another agent’s live claim, naming the holder and the claim’s age', () => {
    const p = progress();
    expect(claimPlanItem(p, 't1', 'alice', later(0)).action).toBe('claimed');
    let error: unknown;
    try {
      claimPlanItem(p, 't1', 'bob', later(12));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ClaimedError);
    expect((error as ClaimedError).message).toBe(
      'plan item t1 is already claimed by alice (claimed 12m ago, expires in 108m)',
    );
    expect((error as ClaimedError).details).toMatchObject({ item: 't1', claimed_by: 'alice' });
    expect(claimPlanItem(p, 't1', 'alice', later(30)).action).toBe('renewed');
    expect(p.plan![0]!.claim).toEqual({ agent: 'alice', at: later(30).now.toISOString() });
  });

  it('shows an expired claim as expired and lets another agent take it over', () => {
    const p = progress();
    claimPlanItem(p, 't1', 'alice', later(0));
    const state = claimState(p.plan![0]!, later(150))!;
    expect(state).toMatchObject({ agent: 'alice', expired: true });
    expect(describeClaim(state, later(150).now)).toBe('claim by alice expired 30m ago');
    const taken = claimPlanItem(p, 't1', 'bob', later(150));
    expect(taken.action).toBe('taken');
    expect(taken.previous).toMatchObject({ agent: 'alice', expired: true });
    expect(planClaims(p, later(150)).map((c) => [c.item, c.agent])).toEqual([['t1', 'bob']]);
  });

  it('needs a name to claim, and --force to take a live claim over', () => {
    expect(() => claimPlanItem(progress(), 't1', null, later(0))).toThrow(UsageError);
    const p = progress();
    claimPlanItem(p, 't1', 'alice', later(0));
    expect(claimPlanItem(p, 't1', 'bob', later(1), true).action).toBe('taken');
  });

  it('lets only the claimer release a live claim', () => {
    const p = progress();
    claimPlanItem(p, 't1', 'alice', later(0));
    expect(() => releasePlanItem(p, 't1', 'bob', later(1))).toThrow(/only alice releases it/);
    expect(releasePlanItem(p, 't1', 'alice', later(1)).released).toMatchObject({ agent: 'alice' });
    expect(releasePlanItem(p, 't1', 'alice', later(1)).released).toBeNull();
  });

  it('lets only the claimer change a claimed item’s status; its changes renew; done ends it', () => {
    const before = progress();
    claimPlanItem(before, 't1', 'alice', later(0));
    const byBob = structuredClone(before);
    byBob.plan![0]!.status = 'running';
    expect(() => applyClaimRules(before, byBob, 'bob', later(5))).toThrow(
      /only alice changes its status/,
    );
    expect(() => applyClaimRules(before, structuredClone(byBob), null, later(5))).toThrow(
      ClaimedError,
    );
    applyClaimRules(before, byBob, 'bob', later(5), true); // --force
    const byAlice = structuredClone(before);
    byAlice.plan![0]!.status = 'running';
    applyClaimRules(before, byAlice, 'alice', later(5));
    expect(byAlice.plan![0]!.claim!.at).toBe(later(5).now.toISOString());
    const done = structuredClone(byAlice);
    done.plan![0]!.status = 'done';
    applyClaimRules(byAlice, done, 'alice', later(6));
    expect(done.plan![0]!.claim).toBeUndefined();
    // An expired claim no longer holds anyone back.
    const late = structuredClone(before);
    late.plan![0]!.status = 'running';
    applyClaimRules(before, late, 'bob', later(121));
  });
});

describe('agent names and ids', () => {
  it('takes --agent over AGENT_STATE_AGENT; no name is the default agent', () => {
    expect(resolveAgent({ env: {} })).toBeNull();
    expect(resolveAgent({ env: { AGENT_STATE_AGENT: '' } })).toBeNull();
    expect(resolveAgent({ env: { AGENT_STATE_AGENT: 'bob' } })).toBe('bob');
    expect(resolveAgent({ agent: 'alice', env: { AGENT_STATE_AGENT: 'bob' } })).toBe('alice');
    expect(resolveAgent({ agent: null, env: { AGENT_STATE_AGENT: 'bob' } })).toBeNull();
    expect(() => checkAgentName('Alice', 'AGENT_STATE_AGENT')).toThrow(
      'AGENT_STATE_AGENT "Alice" is not a valid agent name',
    );
  });

  it('gives every new item a random id of its own, whoever adds it', () => {
    const plan = [
      { id: 't3', title: 'x', status: 'pending' as const },
      { id: 't-00000', title: 'y', status: 'pending' as const },
    ];
    expect(newPlanId(plan)).toMatch(/^t-[0-9a-z]{5}$/);
    // The draw that hits an id already in the plan is drawn again.
    const draws = [0, 0, 0.5];
    expect(newPlanId(plan, () => draws.shift()!)).toBe(`t-${(36 ** 5 / 2).toString(36)}`);
    const many = new Set(Array.from({ length: 2000 }, () => newPlanId([])));
    expect(many.size).toBeGreaterThan(1990);
  });
});

describe('own and shared keys', () => {
  const shared: Progress = {
    version: 1,
    revision: 7,
    stage: 'default stage',
    next_action: 'default next',
    plan: [{ id: 't1', title: 'One', status: 'pending' }],
    memory: { durable: ['shared fact'], working: ['default note'] },
  };
  const own: Progress = {
    version: 1,
    revision: 2,
    agent: 'alice',
    next_action: 'alice next',
    memory: { working: ['alice note'] },
  };

  it('shows a named agent the shared plan with its own next action and working memory', () => {
    expect(overlayProgress(shared, own)).toEqual({
      version: 1,
      revision: 7,
      plan: shared.plan,
      agent: 'alice',
      next_action: 'alice next',
      memory: { durable: ['shared fact'], working: ['alice note'] },
    });
  });

  it('writes a named agent’s changes back without touching the default agent’s own keys', () => {
    const view = structuredClone(overlayProgress(shared, own));
    view.next_action = 'alice later';
    view.stage = 'alice stage';
    view.plan!.push({ id: 'alice-t1', title: 'A', status: 'pending' });
    view.memory!.durable!.push('new fact');
    const split = splitProgress(view, shared, own);
    expect(split.shared).toEqual({
      ...shared,
      plan: [...shared.plan!, { id: 'alice-t1', title: 'A', status: 'pending' }],
      memory: { durable: ['shared fact', 'new fact'], working: ['default note'] },
    });
    expect(split.own).toEqual({
      version: 1,
      revision: 2,
      agent: 'alice',
      stage: 'alice stage',
      next_action: 'alice later',
      memory: { working: ['alice note'] },
    });
  });
});
