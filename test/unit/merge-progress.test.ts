// The three-way merge of progress values: unions by id, the documented rules for both sides
// changing one thing, conflicts where no rule decides, and a result that does not depend on which
// side is ours.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeProgress } from '../../src/merge/merge-progress.js';
import { mergeOrder, mergeSet } from '../../src/merge/sequence.js';

const item = (id: string, status = 'pending', extra: Record<string, unknown> = {}) => ({
  id,
  title: `Step ${id}`,
  status,
  ...extra,
});
const marker = (at: string, file = 'a.txt') => ({
  at,
  files: { [file]: `sha256:${'a'.repeat(64)}` },
});
const base = { version: 1, revision: 3, plan: [item('t1'), item('t2')], markers: {} };

describe('mergeProgress', () => {
  it('keeps both sides’ new plan items, after the item each was added after', () => {
    const ours = { ...base, revision: 5, plan: [item('t1'), item('a1'), item('t2'), item('a2')] };
    const theirs = { ...base, revision: 4, plan: [item('t1'), item('t2'), item('b1')] };
    const { value, conflicts } = mergeProgress(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect((value.plan as { id: string }[]).map((p) => p.id)).toEqual([
      't1',
      'a1',
      't2',
      'a2',
      'b1',
    ]);
    expect(value.revision).toBe(6);
  });

  it('unions markers by id and takes the newer of one marker changed on both sides', () => {
    const ours = {
      ...base,
      markers: { t1: marker('2026-01-01T00:00:00Z'), t2: marker('2026-01-01T00:00:00Z') },
    };
    const theirs = { ...base, markers: { t1: marker('2026-01-02T00:00:00Z', 'b.txt') } };
    const { value, conflicts, decisions } = mergeProgress(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(value.markers).toEqual({
      t1: marker('2026-01-02T00:00:00Z', 'b.txt'),
      t2: ours.markers.t2,
    });
    expect(decisions).toEqual([{ what: 'marker t1', rule: 'the newer marker' }]);
  });

  it('lets done with a marker beat running, and running beat pending', () => {
    const start = { ...base, plan: [item('t1', 'blocked'), item('t2', 'blocked')] };
    const ours = {
      ...start,
      plan: [item('t1', 'done'), item('t2', 'pending')],
      markers: { t1: marker('2026-01-01T00:00:00Z') },
    };
    const theirs = { ...start, plan: [item('t1', 'running'), item('t2', 'running')] };
    const { value, conflicts } = mergeProgress(start, ours, theirs);
    expect(conflicts).toEqual([]);
    expect((value.plan as { status: string }[]).map((p) => p.status)).toEqual(['done', 'running']);
  });

  it('reports a conflict naming the item and both values when no rule decides, losing nothing else', () => {
    const ours = { ...base, plan: [item('t1', 'skipped'), item('t2'), item('a1')] };
    const theirs = { ...base, plan: [item('t1', 'failed'), item('t2', 'running'), item('b1')] };
    const { value, conflicts } = mergeProgress(base, ours, theirs);
    expect(conflicts).toEqual([
      {
        path: ['plan', { id: 't1' }, 'status'],
        what: 'plan item t1 status',
        base: 'pending',
        ours: 'skipped',
        theirs: 'failed',
      },
    ]);
    expect((value.plan as { id: string; status: string }[]).map((p) => [p.id, p.status])).toEqual([
      ['t1', 'skipped'],
      ['t2', 'running'],
      ['a1', 'pending'],
      ['b1', 'pending'],
    ]);
  });

  it('does not let a done item without a marker win (no proof, no rule)', () => {
    const ours = { ...base, plan: [item('t1', 'done'), item('t2')] };
    const theirs = { ...base, plan: [item('t1', 'running'), item('t2')] };
    expect(mergeProgress(base, ours, theirs).conflicts.map((c) => c.what)).toEqual([
      'plan item t1 status',
    ]);
  });

  it('merges claims: the same agent’s newer claim; two agents’ claims conflict; finishing ends a claim', () => {
    const claim = (agent: string, at: string) => ({ agent, at });
    const b = {
      ...base,
      plan: [item('t1', 'running', { claim: claim('al', '2026-01-01T00:00:00Z') }), item('t2')],
    };
    const renewed = mergeProgress(
      b,
      {
        ...b,
        plan: [
          item('t1', 'running', { claim: claim('al', '2026-01-01T01:00:00Z') }),
          item('t2', 'running', { claim: claim('al', '2026-01-01T01:00:00Z') }),
        ],
      },
      {
        ...b,
        plan: [
          item('t1', 'running', { claim: claim('al', '2026-01-01T02:00:00Z') }),
          item('t2', 'running', { claim: claim('bo', '2026-01-01T02:00:00Z') }),
        ],
      },
    );
    expect((renewed.value.plan as { claim?: unknown }[])[0]!.claim).toEqual(
      claim('al', '2026-01-01T02:00:00Z'),
    );
    expect(renewed.conflicts.map((c) => c.what)).toEqual(['plan item t2 claim']);
    const finished = mergeProgress(
      b,
      {
        ...b,
        plan: [item('t1', 'done'), item('t2')],
        markers: { t1: marker('2026-01-01T03:00:00Z') },
      },
      {
        ...b,
        plan: [item('t1', 'running', { claim: claim('al', '2026-01-01T02:00:00Z') }), item('t2')],
      },
    );
    expect(finished.conflicts).toEqual([]);
    expect((finished.value.plan as Record<string, unknown>[])[0]).toEqual(item('t1', 'done'));
  });

  it('conflicts when one side removed an item the other changed, and keeps the changed one', () => {
    const ours = { ...base, plan: [item('t2')] };
    const theirs = { ...base, plan: [item('t1', 'running'), item('t2')] };
    const { value, conflicts } = mergeProgress(base, ours, theirs);
    expect(conflicts.map((c) => c.path)).toEqual([['plan', { id: 't1' }]]);
    expect((value.plan as { id: string }[]).map((p) => p.id)).toEqual(['t1', 't2']);
    // Removed on one side, untouched on the other: gone.
    expect(
      (mergeProgress(base, ours, base).value.plan as { id: string }[]).map((p) => p.id),
    ).toEqual(['t2']);
  });

  it('merges memory and reminders as sets and the stamp by its own rules', () => {
    const b = {
      ...base,
      memory: { durable: ['x'] },
      reminders: [{ text: 'r', at: '2026-01-01T00:00:00Z' }],
      stamp: { checkpoints: 2, last_checkpoint: '2026-01-01T00:00:00Z' },
    };
    const ours = {
      ...b,
      memory: { durable: ['x', 'o'] },
      reminders: [],
      stamp: { checkpoints: 3, last_checkpoint: '2026-01-02T00:00:00Z' },
    };
    const theirs = {
      ...b,
      memory: { durable: ['t'] },
      stamp: { checkpoints: 4, last_checkpoint: '2026-01-03T00:00:00Z' },
    };
    const { value, conflicts } = mergeProgress(b, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(value.memory).toEqual({ durable: ['t', 'o'] });
    expect(value.reminders).toEqual([]);
    expect(value.stamp).toEqual({ checkpoints: 5, last_checkpoint: '2026-01-03T00:00:00Z' });
  });

  it('drops the 0.1.0 boot counters a side moved to its local record, without a conflict', () => {
    const old = { boots: 5, last_boot: '2026-01-01T00:00:00Z', compactions: 1, checkpoints: 2 };
    const b = { ...base, stamp: old };
    // Ours was written by this version (the counters moved to .agent/log/recovery.json); theirs
    // is still a 0.1.0 writer's, counting on.
    const ours = { ...b, stamp: { checkpoints: 2 } };
    const theirs = { ...b, stamp: { ...old, boots: 7, last_boot: '2026-01-02T00:00:00Z' } };
    for (const [o, t] of [
      [ours, theirs],
      [theirs, ours],
    ] as const) {
      const { value, conflicts } = mergeProgress(b, o, t);
      expect(conflicts).toEqual([]);
      expect(value.stamp).toEqual({ checkpoints: 2 });
    }
  });

  it('gives an agent’s own keys to the side that acted last, and conflicts when that is unknown', () => {
    const b = { version: 1, revision: 1, agent: 'al', next_action: 'a', stage: 's' };
    const ours = { ...b, next_action: 'ours', last_seen: '2026-01-02T00:00:00Z' };
    const theirs = { ...b, next_action: 'theirs', stage: 't', last_seen: '2026-01-01T00:00:00Z' };
    expect(mergeProgress(b, ours, theirs).value).toMatchObject({
      next_action: 'ours',
      stage: 't',
      last_seen: '2026-01-02T00:00:00Z',
    });
    const unknown = mergeProgress(b, { ...b, next_action: 'x' }, { ...b, next_action: 'y' });
    expect(unknown.conflicts.map((c) => c.what)).toEqual(['next_action']);
  });

  it('gives the same merged value whichever side is ours (property)', () => {
    const statuses = ['pending', 'running', 'blocked', 'done', 'skipped', 'failed'] as const;
    const plan = fc.uniqueArray(
      fc.record({
        id: fc.constantFrom('t1', 't2', 't3', 'a1', 'a2', 'b1', 'b2'),
        status: fc.constantFrom(...statuses),
      }),
      { selector: (i) => i.id, maxLength: 6 },
    );
    const side = fc.record({
      plan,
      markers: fc.dictionary(
        fc.constantFrom('t1', 't2', 'a1', 'b1'),
        fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z').map((at) => marker(at)),
      ),
    });
    fc.assert(
      fc.property(side, side, side, (b, o, t) => {
        const sort = (v: Record<string, unknown>) => ({
          ...v,
          markers: Object.fromEntries(Object.entries((v.markers ?? {}) as object).sort()),
        });
        const ab = mergeProgress(b, o, t);
        const ba = mergeProgress(b, t, o);
        expect(ab.conflicts.map((c) => c.what).sort()).toEqual(
          ba.conflicts.map((c) => c.what).sort(),
        );
        if (ab.conflicts.length === 0) expect(sort(ab.value)).toEqual(sort(ba.value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('mergeOrder and mergeSet', () => {
  it('orders runs added at the same place by their first key, whichever side added them', () => {
    expect(mergeOrder(['a'], ['a', 'x1', 'x2'], ['a', 'b1'], () => true)).toEqual([
      'a',
      'b1',
      'x1',
      'x2',
    ]);
    expect(mergeOrder(['a'], ['a', 'b1'], ['a', 'x1', 'x2'], () => true)).toEqual([
      'a',
      'b1',
      'x1',
      'x2',
    ]);
  });

  it('drops what either side removed and keeps what either added', () => {
    expect(mergeSet(['a', 'b', 'c'], ['a', 'c', 'o'], ['a', 'b', 't'])).toEqual(['a', 't', 'o']);
  });
});
