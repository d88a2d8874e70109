// The plan's needs (depends_on): which items are ready, changing an item's needs, and refusing
// a need that does not exist or would close a circle. Pure functions on progress values.
import { describe, expect, it } from 'vitest';
import { mergeProgress } from '../../src/merge/merge-progress.js';
import {
  addPlanItem,
  findCycle,
  readyItems,
  readyLine,
  setPlanNeeds,
} from '../../src/state/plan.js';
import type { PlanItem, PlanStatus, Progress } from '../../src/types.js';

const item = (id: string, status: PlanStatus, needs?: string[]): PlanItem => ({
  id,
  title: `Step ${id}`,
  status,
  ...(needs ? { depends_on: needs } : {}),
});
const progress = (...plan: PlanItem[]): Progress => ({ version: 1, revision: 1, plan });

describe('readyItems', () => {
  it('lists the pending items whose needs are all done or skipped, in plan order', () => {
    const plan = [
      item('t1', 'done'),
      item('t2', 'skipped'),
      item('t3', 'running'),
      item('t4', 'pending', ['t1', 't2']),
      item('t5', 'pending', ['t1', 't3']),
      item('t6', 'pending'),
      item('t7', 'blocked'),
      item('t8', 'pending', ['gone']),
    ];
    expect(readyItems(plan).map((i) => i.id)).toEqual(['t4', 't6']);
    expect(readyItems(undefined)).toEqual([]);
  });

  it('names the first few on one line and counts the rest', () => {
    const plan = Array.from({ length: 7 }, (_, i) => item(`t${i + 1}`, 'pending'));
    expect(readyLine(plan.slice(0, 2))).toBe('t1 Step t1 · t2 Step t2');
    expect(readyLine(plan)).toBe(
      't1 Step t1 · t2 Step t2 · t3 Step t3 · t4 Step t4 · t5 Step t5 · and 2 more',
    );
  });
});

describe('setPlanNeeds', () => {
  it('replaces the needs, drops duplicates, and clears them with an empty list', () => {
    const p = progress(item('t1', 'pending'), item('t2', 'pending'), item('t3', 'pending', ['t1']));
    expect(setPlanNeeds(p, 't3', ['t2', 't2', 't1']).depends_on).toEqual(['t2', 't1']);
    expect(setPlanNeeds(p, 't3', [])).not.toHaveProperty('depends_on');
  });

  it('refuses an unknown item or need with the ids that exist', () => {
    const p = progress(item('t1', 'pending'), item('t2', 'pending'));
    expect(() => setPlanNeeds(p, 't9', ['t1'])).toThrow(/no plan item "t9"/);
    expect(() => setPlanNeeds(p, 't2', ['t1', 'nope'])).toThrow(
      expect.objectContaining({ code: 'USAGE', hint: 'use one of: t1, t2' }),
    );
  });

  it('refuses a circle, naming it, and a need on itself', () => {
    const p = progress(
      item('t1', 'pending', ['t2']),
      item('t2', 'pending', ['t3']),
      item('t3', 'pending'),
    );
    expect(() => setPlanNeeds(p, 't3', ['t1'])).toThrow(
      expect.objectContaining({
        code: 'USAGE',
        message: 'the needs would go round in a circle: t1 → t2 → t3 → t1',
      }),
    );
    expect(() => setPlanNeeds(p, 't3', ['t3'])).toThrow(/t3 → t3/);
  });
});

describe('findCycle', () => {
  it('finds none in a diamond and one in a long chain closed at the end', () => {
    expect(
      findCycle([
        item('a', 'pending', ['b', 'c']),
        item('b', 'pending', ['d']),
        item('c', 'pending', ['d']),
        item('d', 'pending'),
      ]),
    ).toBeNull();
    const chain = Array.from({ length: 500 }, (_, i) =>
      item(`t${i}`, 'pending', [`t${(i + 1) % 500}`]),
    );
    expect(findCycle(chain)).toHaveLength(501);
  });
});

describe('addPlanItem needs', () => {
  it('keeps each need once', () => {
    const p = progress(item('t1', 'pending'));
    expect(addPlanItem(p, { title: 'Two', dependsOn: ['t1', 't1'] }).depends_on).toEqual(['t1']);
  });
});

describe('merging needs added on two branches', () => {
  it('keeps both sides’ new needs of one item, and a need either side dropped stays dropped', () => {
    const base = progress(
      item('t1', 'pending'),
      item('t2', 'pending'),
      item('t3', 'pending'),
      item('t4', 'pending', ['t1']),
    );
    const ours = structuredClone(base);
    setPlanNeeds(ours, 't4', ['t1', 't2']);
    const theirs = structuredClone(base);
    setPlanNeeds(theirs, 't4', ['t3']);
    const plain = (p: Progress) => p as unknown as Record<string, unknown>;
    const { value, conflicts } = mergeProgress(plain(base), plain(ours), plain(theirs));
    expect(conflicts).toEqual([]);
    const needs = (value.plan as PlanItem[]).find((p) => p.id === 't4')!.depends_on;
    expect([...needs!].sort()).toEqual(['t2', 't3']);
  });
});
