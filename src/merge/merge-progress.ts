// The three-way merge of a progress file (pure): the shared progress.yaml or an agent's own file,
// as plain values from the common ancestor (base), our side and their side. Lists with ids merge
// by id, maps by key; where both sides changed one thing, a documented rule decides
// (docs/multi-agent.md), or the result records a conflict naming it and both values. The value
// returned is complete either way: a conflicted place holds our value (theirs when ours is gone).
import { LEGACY_STAMP_KEYS } from '../recovery/record.js';
import { isDeepStrictEqual } from 'node:util';
import { mergeOrder, mergeSet, pick3 } from './sequence.js';

/** A step of a path into the merged document: a map key, or a list item by its id. */
export type PathStep = string | { id: string };

/** Something both sides changed in ways no rule decides. */
export interface MergeConflict {
  path: PathStep[];
  /** What it is, for people: `plan item t7 status`, `marker t7`, `next_action`. */
  what: string;
  /** Undefined: absent on that side. */
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

/** A rule that decided a change made on both sides (reported, not a conflict). */
export interface MergeDecision {
  what: string;
  rule: string;
}

export interface MergeOutcome {
  value: Record<string, unknown>;
  conflicts: MergeConflict[];
  decisions: MergeDecision[];
}

type Obj = Record<string, unknown>;

interface Ctx extends Omit<MergeOutcome, 'value'> {
  /** The ids each side has a marker for. */
  markers: { ours: ReadonlySet<string>; theirs: ReadonlySet<string> };
  /** When each side last acted (lastActed). */
  acted: { ours: number; theirs: number };
}

type Merger = (ctx: Ctx, b: unknown, o: unknown, t: unknown) => unknown;

/** Where a merge is in the document, as a conflict names it. */
type At = Pick<MergeConflict, 'path' | 'what'>;

// A top-level key, named by itself.
const top = (key: string): At => ({ path: [key], what: key });

const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const obj = (value: unknown): Obj => (isObj(value) ? value : {});
const keysOf = (...values: unknown[]) => [...new Set(values.flatMap((v) => Object.keys(obj(v))))];

function time(value: unknown): number {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

// The side that changed, or what `decide` makes of a change on both sides.
function choose(b: unknown, o: unknown, t: unknown, decide: () => unknown): unknown {
  const choice = pick3(b, o, t);
  return choice.conflict ? decide() : choice.value;
}

// Records a conflict; returns the value it keeps in place (ours, theirs when ours is absent).
function conflict(ctx: Ctx, at: At, b: unknown, o: unknown, t: unknown) {
  ctx.conflicts.push({ ...at, base: b, ours: o, theirs: t });
  return o === undefined ? t : o;
}

function decided(ctx: Ctx, what: string, rule: string, value: unknown): unknown {
  ctx.decisions.push({ what, rule });
  return value;
}

// The side whose `at` is later; undefined unless both are maps with different times.
function newer(o: unknown, t: unknown): Obj | undefined {
  if (!isObj(o) || !isObj(t) || time(o.at) === time(t.at)) return undefined;
  return time(o.at) > time(t.at) ? o : t;
}

// Lists merged as sets (absent: empty), or null when a side is something else.
function mergeLists(b: unknown, o: unknown, t: unknown): unknown[] | null {
  if (![b, o, t].every((v) => v === undefined || Array.isArray(v))) return null;
  return mergeSet((b ?? []) as unknown[], (o ?? []) as unknown[], (t ?? []) as unknown[]);
}

// A map merged key by key with `each` (a side that is not a map: whole); absent when both are.
function mergeKeys(
  ctx: Ctx,
  at: At,
  b: unknown,
  o: unknown,
  t: unknown,
  each: (key: string, b: unknown, o: unknown, t: unknown) => unknown,
): unknown {
  if (![b, o, t].every((v) => v === undefined || isObj(v))) return mergeGeneric(ctx, at, b, o, t);
  if (o === undefined && t === undefined) return undefined;
  const out: Obj = {};
  for (const key of keysOf(o, t, b)) {
    const value = each(key, obj(b)[key], obj(o)[key], obj(t)[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

// Any value without a rule of its own: maps key by key, anything else whole.
function mergeGeneric(ctx: Ctx, at: At, b: unknown, o: unknown, t: unknown): unknown {
  if (isObj(o) && isObj(t) && (b === undefined || isObj(b)))
    return mergeKeys(ctx, at, b, o, t, (key, ...v) =>
      mergeGeneric(ctx, { path: [...at.path, key], what: `${at.what}.${key}` }, ...v),
    );
  return choose(b, o, t, () => conflict(ctx, at, b, o, t));
}

const PROGRESS_STATUSES = new Set(['pending', 'running', 'blocked']);
const FINISHED = new Set(['done', 'skipped']);

// Both sides changed an item's status: done with a marker beats work in progress; running beats
// pending; anything else is for a person to decide.
function mergeStatus(ctx: Ctx, id: string, b: unknown, o: unknown, t: unknown): unknown {
  return choose(b, o, t, () => {
    const what = `plan item ${id} status`;
    for (const side of ['ours', 'theirs'] as const) {
      const [done, other] = side === 'ours' ? [o, t] : [t, o];
      if (done === 'done' && ctx.markers[side].has(id) && PROGRESS_STATUSES.has(String(other)))
        return decided(ctx, what, `done with a marker beats ${String(other)}`, 'done');
    }
    if ([o, t].includes('running') && [o, t].includes('pending'))
      return decided(ctx, what, 'running beats pending', 'running');
    conflict(ctx, { path: ['plan', { id }, 'status'], what }, b, o, t);
    return o;
  });
}

// Both sides changed an item's claim: the same agent's newer claim; a claim made after the common
// ancestor over a release; claims of two agents are a conflict.
function mergeClaim(ctx: Ctx, id: string, b: unknown, o: unknown, t: unknown): unknown {
  return choose(b, o, t, () => {
    const what = `plan item ${id} claim`;
    if (isObj(o) && isObj(t) && o.agent === t.agent) {
      const later = time(o.at) >= time(t.at) ? o : t;
      return decided(ctx, what, 'the newer claim of the same agent', later);
    }
    const kept = o === undefined ? t : t === undefined ? o : null;
    if (isObj(kept) && time(kept.at) > time(obj(b).at))
      return decided(ctx, what, 'a claim made since the common ancestor beats a release', kept);
    conflict(ctx, { path: ['plan', { id }, 'claim'], what }, b, o, t);
    return o ?? t;
  });
}

function idsOf(list: unknown): string[] | null {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return null;
  const ids = list.map((item) => (isObj(item) && typeof item.id === 'string' ? item.id : null));
  if (ids.some((id) => id === null) || new Set(ids).size !== ids.length) return null;
  return ids as string[];
}

function byId(list: unknown): Map<string, Obj> {
  return new Map((Array.isArray(list) ? list : []).map((item: Obj) => [item.id as string, item]));
}

function mergeItem(ctx: Ctx, id: string, b: Obj | undefined, o: Obj, t: Obj): Obj {
  const what = `plan item ${id}`;
  const out = mergeKeys(ctx, { path: ['plan', { id }], what }, b, o, t, (key, bv, ov, tv) => {
    if (key === 'id') return id;
    if (key === 'status') return mergeStatus(ctx, id, bv, ov, tv);
    if (key === 'claim') return mergeClaim(ctx, id, bv, ov, tv);
    // A set: both sides' new dependencies, without those either side dropped.
    const needs = key === 'depends_on' ? mergeLists(bv, ov, tv) : null;
    if (needs)
      return needs.length === 0 && (ov === undefined || tv === undefined) ? undefined : needs;
    return mergeGeneric(ctx, { path: ['plan', { id }, key], what: `${what} ${key}` }, bv, ov, tv);
  }) as Obj;
  // Finishing an item ends its claim: the side that marked it done or skipped dropped the claim,
  // and a renewal on the other side does not bring it back.
  if (FINISHED.has(String(out.status)) && (o.claim === undefined || t.claim === undefined))
    delete out.claim;
  return out;
}

function mergePlan(ctx: Ctx, b: unknown, o: unknown, t: unknown): unknown {
  const [bi, oi, ti] = [idsOf(b), idsOf(o), idsOf(t)];
  if (!bi || !oi || !ti) return mergeGeneric(ctx, top('plan'), b, o, t);
  const [bm, om, tm] = [byId(b), byId(o), byId(t)];
  const merged = new Map<string, Obj>();
  for (const id of new Set([...oi, ...ti, ...bi])) {
    const [bv, ov, tv] = [bm.get(id), om.get(id), tm.get(id)];
    const kept = ov ?? tv;
    if (ov && tv) merged.set(id, mergeItem(ctx, id, bv, ov, tv));
    else if (!bv)
      merged.set(id, kept!); // added on one side
    // Removed on one side: gone if the other left it as it was; else a person decides.
    else if (kept && !isDeepStrictEqual(kept, bv)) {
      const what = `plan item ${id} (removed on one side, changed on the other)`;
      conflict(ctx, { path: ['plan', { id }], what }, bv, ov, tv);
      merged.set(id, kept);
    }
  }
  if (o === undefined && t === undefined) return undefined;
  return mergeOrder(bi, oi, ti, (id) => merged.has(id)).flatMap((id) => merged.get(id) ?? []);
}

// Markers: a union by id; the same marker changed on both sides: the newer one (by `at`).
const mergeMarkers: Merger = (ctx, b, o, t) =>
  mergeKeys(ctx, top('markers'), b, o, t, (id, bv, ov, tv) =>
    choose(bv, ov, tv, () => {
      const later = newer(ov, tv);
      if (later) return decided(ctx, `marker ${id}`, 'the newer marker', later);
      return conflict(ctx, { path: ['markers', id], what: `marker ${id}` }, bv, ov, tv);
    }),
  );

function mergeStringList(ctx: Ctx, at: At, b: unknown, o: unknown, t: unknown): unknown {
  const merged = mergeLists(b, o, t);
  if (!merged) return mergeGeneric(ctx, at, b, o, t);
  return o === undefined && t === undefined ? undefined : merged;
}

const mergeMemory: Merger = (ctx, b, o, t) =>
  mergeKeys(ctx, top('memory'), b, o, t, (key, ...v) =>
    (key === 'durable' || key === 'working' ? mergeStringList : mergeGeneric)(
      ctx,
      { path: ['memory', key], what: `memory.${key}` },
      ...v,
    ),
  );

const COUNTERS = new Set(['boots', 'checkpoints', 'compactions']);
// The boot counters 0.1.0 kept in the stamp are local facts now (.agent/log/recovery.json): once
// a side has moved them out, the merged stamp has none, and they never conflict.
const LEGACY = new Set<string>(LEGACY_STAMP_KEYS);
const TIMES = new Set(['last_boot', 'last_checkpoint', 'last_compaction']);
const FROM_LAST_CHECKPOINT = new Set(['last_test', 'progress_digest', 'stalled_boots']);

// The stamp: counters add both sides' increments, times take the later, what a checkpoint
// records comes from the later checkpoint, the next-action history is the union by time.
function mergeStamp(ctx: Ctx, b: unknown, o: unknown, t: unknown): unknown {
  const [oo, to] = [obj(o), obj(t)];
  const later = (at: string, ov: unknown, tv: unknown) => (time(oo[at]) >= time(to[at]) ? ov : tv);
  return mergeKeys(ctx, top('stamp'), b, o, t, (key, bv, ov, tv) => {
    if (LEGACY.has(key) && (ov === undefined || tv === undefined)) return undefined;
    return choose(bv, ov, tv, () => {
      const history = key === 'recent_next_actions' ? mergeLists(bv, ov, tv) : null;
      if (COUNTERS.has(key) && [ov, tv].every((v) => typeof v === 'number'))
        return Math.max(0, (ov as number) + (tv as number) - (typeof bv === 'number' ? bv : 0));
      if (TIMES.has(key)) return time(ov) >= time(tv) ? ov : tv;
      if (FROM_LAST_CHECKPOINT.has(key)) return later('last_checkpoint', ov, tv);
      if (key === 'recovery_level') return later('last_boot', ov, tv);
      if (history) return (history as Obj[]).sort((x, y) => time(x.at) - time(y.at)).slice(-5);
      conflict(ctx, { path: ['stamp', key], what: `stamp.${key}` }, bv, ov, tv);
      return ov ?? tv;
    });
  });
}

// When a side last acted: its own file's last_seen, else (the default agent in progress.yaml) its
// newest next action or checkpoint.
function lastActed(side: Obj): number {
  const stamp = obj(side.stamp);
  const history = Array.isArray(stamp.recent_next_actions) ? stamp.recent_next_actions : [];
  const last = history[history.length - 1] as Obj | undefined;
  return Math.max(time(side.last_seen), time(stamp.last_checkpoint), time(last?.at));
}

// The top-level keys with rules of their own.
const TOP: Record<string, Merger> = {
  version: (_, b, o, t) => choose(b, o, t, () => Math.max(Number(o) || 1, Number(t) || 1)),
  // Past both sides, so that a compare-and-swap on either side's revision fails.
  revision: (_, b, o, t) => Math.max(Number(b) || 0, Number(o) || 0, Number(t) || 0) + 1,
  plan: mergePlan,
  markers: mergeMarkers,
  memory: mergeMemory,
  reminders: (ctx, ...v) => mergeStringList(ctx, top('reminders'), ...v),
  stamp: mergeStamp,
  last_seen: (_, b, o, t) => choose(b, o, t, () => (time(o) >= time(t) ? o : t)),
  fingerprint: (ctx, b, o, t) =>
    choose(b, o, t, () => {
      const later = newer(o, t);
      if (later) return decided(ctx, 'fingerprint', 'the later checkpoint', later);
      return o === null || t === null ? (o ?? t) : conflict(ctx, top('fingerprint'), b, o, t);
    }),
};

/** An agent's own keys that go together when both sides changed them: the later side's. */
const OWN_BLOCK = ['stage', 'next_action', 'current_step'];

function mergeOther(ctx: Ctx, key: string, b: unknown, o: unknown, t: unknown): unknown {
  return choose(b, o, t, () => {
    const { ours, theirs } = ctx.acted;
    if (OWN_BLOCK.includes(key) && ours !== theirs)
      return decided(ctx, key, 'the side that acted last', ours > theirs ? o : t);
    if (isObj(o) && isObj(t)) return mergeGeneric(ctx, top(key), b, o, t);
    return conflict(ctx, top(key), b, o, t);
  });
}

/** Merges three versions of a progress file (plain values; base `{}` when there was none). */
export function mergeProgress(base: Obj, ours: Obj, theirs: Obj): MergeOutcome {
  const markers = (side: Obj) => new Set(Object.keys(obj(side.markers)));
  const ctx: Ctx = {
    conflicts: [],
    decisions: [],
    markers: { ours: markers(ours), theirs: markers(theirs) },
    acted: { ours: lastActed(ours), theirs: lastActed(theirs) },
  };
  const value = mergeKeys(ctx, { path: [], what: '' }, base, ours, theirs, (key, b, o, t) =>
    Object.hasOwn(TOP, key) ? TOP[key]!(ctx, b, o, t) : mergeOther(ctx, key, b, o, t),
  ) as Obj;
  return { value, conflicts: ctx.conflicts, decisions: ctx.decisions };
}
