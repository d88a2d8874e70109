// The three-way merge of a progress file (pure): the shared progress.yaml or an agent's own file,
// as plain values from the common ancestor (base), our side and their side. Lists with ids merge
// by id, maps by key; where both sides changed one thing, a documented rule decides
// (docs/multi-agent.md), or the result records a conflict naming it and both values. The value
// returned is complete either way: a conflicted place holds our value (theirs when ours is gone).
import { LEGACY_STAMP_KEYS } from '../recovery/record.js';
import { mergeOrder, mergeSet, pick3, same } from './sequence.js';

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

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown): Obj {
  return isObj(value) ? value : {};
}

function keysOf(...values: unknown[]): string[] {
  const keys: string[] = [];
  for (const value of values)
    for (const key of Object.keys(obj(value))) if (!keys.includes(key)) keys.push(key);
  return keys;
}

function time(value: unknown): number {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

interface Ctx {
  conflicts: MergeConflict[];
  decisions: MergeDecision[];
}

function conflict(ctx: Ctx, path: PathStep[], what: string, b: unknown, o: unknown, t: unknown) {
  ctx.conflicts.push({ path, what, base: b, ours: o, theirs: t });
}

// Any value without a rule of its own: maps key by key, anything else whole.
function mergeGeneric(
  ctx: Ctx,
  path: PathStep[],
  what: string,
  b: unknown,
  o: unknown,
  t: unknown,
): unknown {
  if (isObj(o) && isObj(t) && (b === undefined || isObj(b))) {
    const out: Obj = {};
    for (const key of keysOf(o, t, b)) {
      const value = mergeGeneric(
        ctx,
        [...path, key],
        `${what}.${key}`,
        obj(b)[key],
        o[key],
        t[key],
      );
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  const choice = pick3(b, o, t);
  if (choice.conflict) conflict(ctx, path, what, b, o, t);
  return choice.value;
}

const PROGRESS_STATUSES = new Set(['pending', 'running', 'blocked']);
const FINISHED = new Set(['done', 'skipped']);

// Both sides changed an item's status: done with a marker beats work in progress; running beats
// pending; anything else is for a person to decide.
function mergeStatus(
  ctx: Ctx,
  id: string,
  b: unknown,
  o: unknown,
  t: unknown,
  marked: { ours: boolean; theirs: boolean },
): unknown {
  const choice = pick3(b, o, t);
  if (!choice.conflict) return choice.value;
  const what = `plan item ${id} status`;
  for (const [done, other, side] of [
    [o, t, 'ours'],
    [t, o, 'theirs'],
  ] as const) {
    if (done === 'done' && marked[side] && PROGRESS_STATUSES.has(String(other))) {
      ctx.decisions.push({ what, rule: `done with a marker beats ${String(other)}` });
      return 'done';
    }
  }
  if ((o === 'running' && t === 'pending') || (o === 'pending' && t === 'running')) {
    ctx.decisions.push({ what, rule: 'running beats pending' });
    return 'running';
  }
  conflict(ctx, ['plan', { id }, 'status'], what, b, o, t);
  return o;
}

// Both sides changed an item's claim: the same agent's newer claim; a claim made after the common
// ancestor over a release; claims of two agents are a conflict.
function mergeClaim(ctx: Ctx, id: string, b: unknown, o: unknown, t: unknown): unknown {
  const choice = pick3(b, o, t);
  if (!choice.conflict) return choice.value;
  const what = `plan item ${id} claim`;
  const bo = obj(b);
  if (isObj(o) && isObj(t) && o.agent === t.agent) {
    ctx.decisions.push({ what, rule: 'the newer claim of the same agent' });
    return time(o.at) >= time(t.at) ? o : t;
  }
  const kept = o === undefined ? t : t === undefined ? o : null;
  if (isObj(kept) && time(kept.at) > time(bo.at)) {
    ctx.decisions.push({ what, rule: 'a claim made since the common ancestor beats a release' });
    return kept;
  }
  conflict(ctx, ['plan', { id }, 'claim'], what, b, o, t);
  return o ?? t;
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

function mergeItem(
  ctx: Ctx,
  id: string,
  b: Obj | undefined,
  o: Obj,
  t: Obj,
  markers: MarkerSides,
): Obj {
  const out: Obj = {};
  const base = b ?? {};
  for (const key of keysOf(o, t, base)) {
    const [bv, ov, tv] = [base[key], o[key], t[key]];
    let value: unknown;
    if (key === 'id') value = id;
    else if (key === 'status')
      value = mergeStatus(ctx, id, bv, ov, tv, {
        ours: markers.ours.has(id),
        theirs: markers.theirs.has(id),
      });
    else if (key === 'claim') value = mergeClaim(ctx, id, bv, ov, tv);
    else if (
      key === 'depends_on' &&
      [bv, ov, tv].every((v) => v === undefined || Array.isArray(v))
    ) {
      const merged = mergeSet(
        (bv ?? []) as unknown[],
        (ov ?? []) as unknown[],
        (tv ?? []) as unknown[],
      );
      // A set: both sides' new dependencies, without those either side dropped.
      value = merged.length === 0 && (ov === undefined || tv === undefined) ? undefined : merged;
    } else value = mergeGeneric(ctx, ['plan', { id }, key], `plan item ${id} ${key}`, bv, ov, tv);
    if (value !== undefined) out[key] = value;
  }
  // Finishing an item ends its claim: the side that marked it done or skipped dropped the claim,
  // and a renewal on the other side does not bring it back.
  if (FINISHED.has(String(out.status)) && (o.claim === undefined || t.claim === undefined))
    delete out.claim;
  return out;
}

interface MarkerSides {
  ours: ReadonlySet<string>;
  theirs: ReadonlySet<string>;
}

function mergePlan(ctx: Ctx, b: unknown, o: unknown, t: unknown, markers: MarkerSides): unknown {
  const [bi, oi, ti] = [idsOf(b), idsOf(o), idsOf(t)];
  if (bi === null || oi === null || ti === null)
    return mergeGeneric(ctx, ['plan'], 'plan', b, o, t);
  const [bm, om, tm] = [byId(b), byId(o), byId(t)];
  const merged = new Map<string, Obj>();
  for (const id of [...new Set([...oi, ...ti, ...bi])]) {
    const [bv, ov, tv] = [bm.get(id), om.get(id), tm.get(id)];
    if (ov && tv) merged.set(id, mergeItem(ctx, id, bv, ov, tv, markers));
    else if (!bv)
      merged.set(id, (ov ?? tv)!); // added on one side
    else if (ov || tv) {
      // Removed on one side: gone if the other left it as it was; else a person decides.
      const kept = (ov ?? tv)!;
      if (!same(kept, bv)) {
        conflict(
          ctx,
          ['plan', { id }],
          `plan item ${id} (removed on one side, changed on the other)`,
          bv,
          ov,
          tv,
        );
        merged.set(id, kept);
      }
    }
  }
  const order = mergeOrder(bi, oi, ti, (id) => merged.has(id));
  const list = order.filter((id) => merged.has(id)).map((id) => merged.get(id)!);
  return o === undefined && t === undefined ? undefined : list;
}

// Markers: a union by id; the same marker changed on both sides: the newer one (by `at`).
function mergeMarkers(ctx: Ctx, b: unknown, o: unknown, t: unknown): unknown {
  if (![b, o, t].every((v) => v === undefined || isObj(v)))
    return mergeGeneric(ctx, ['markers'], 'markers', b, o, t);
  const out: Obj = {};
  const [bo, oo, to] = [obj(b), obj(o), obj(t)];
  for (const id of keysOf(o, t, b)) {
    const [bv, ov, tv] = [bo[id], oo[id], to[id]];
    const choice = pick3(bv, ov, tv);
    let value = choice.value;
    if (choice.conflict) {
      const what = `marker ${id}`;
      if (isObj(ov) && isObj(tv) && time(ov.at) !== time(tv.at)) {
        ctx.decisions.push({ what, rule: 'the newer marker' });
        value = time(ov.at) > time(tv.at) ? ov : tv;
      } else conflict(ctx, ['markers', id], what, bv, ov, tv);
    }
    if (value !== undefined) out[id] = value;
  }
  return o === undefined && t === undefined ? undefined : out;
}

function mergeStringList(
  ctx: Ctx,
  path: PathStep[],
  what: string,
  b: unknown,
  o: unknown,
  t: unknown,
): unknown {
  if (![b, o, t].every((v) => v === undefined || Array.isArray(v)))
    return mergeGeneric(ctx, path, what, b, o, t);
  if (o === undefined && t === undefined) return undefined;
  return mergeSet((b ?? []) as unknown[], (o ?? []) as unknown[], (t ?? []) as unknown[]);
}

function mergeMemory(ctx: Ctx, b: unknown, o: unknown, t: unknown): unknown {
  if (![b, o, t].every((v) => v === undefined || isObj(v)))
    return mergeGeneric(ctx, ['memory'], 'memory', b, o, t);
  const out: Obj = {};
  for (const key of keysOf(o, t, b)) {
    const args = [obj(b)[key], obj(o)[key], obj(t)[key]] as const;
    const value =
      key === 'durable' || key === 'working'
        ? mergeStringList(ctx, ['memory', key], `memory.${key}`, ...args)
        : mergeGeneric(ctx, ['memory', key], `memory.${key}`, ...args);
    if (value !== undefined) out[key] = value;
  }
  return o === undefined && t === undefined ? undefined : out;
}

const COUNTERS = new Set(['boots', 'checkpoints', 'compactions']);
// The boot counters 0.1.0 kept in the stamp are local facts now (.agent/log/recovery.json): once
// a side has moved them out, the merged stamp has none, and they never conflict.
const LEGACY = new Set<string>(LEGACY_STAMP_KEYS);
const TIMES = new Set(['last_boot', 'last_checkpoint', 'last_compaction']);
const FROM_LAST_CHECKPOINT = new Set(['last_test', 'progress_digest', 'stalled_boots']);

// The stamp: counters add both sides' increments, times take the later, what a checkpoint
// records comes from the later checkpoint, the next-action history is the union by time.
function mergeStamp(ctx: Ctx, b: unknown, o: unknown, t: unknown): unknown {
  if (![b, o, t].every((v) => v === undefined || isObj(v)))
    return mergeGeneric(ctx, ['stamp'], 'stamp', b, o, t);
  const [bo, oo, to] = [obj(b), obj(o), obj(t)];
  const out: Obj = {};
  const oursLater = time(oo.last_checkpoint) >= time(to.last_checkpoint);
  for (const key of keysOf(o, t, b)) {
    const [bv, ov, tv] = [bo[key], oo[key], to[key]];
    if (LEGACY.has(key) && (ov === undefined || tv === undefined)) continue;
    const choice = pick3(bv, ov, tv);
    let value = choice.value;
    if (choice.conflict) {
      if (COUNTERS.has(key) && [ov, tv].every((v) => typeof v === 'number'))
        value = Math.max(0, (ov as number) + (tv as number) - (typeof bv === 'number' ? bv : 0));
      else if (TIMES.has(key)) value = time(ov) >= time(tv) ? ov : tv;
      else if (FROM_LAST_CHECKPOINT.has(key)) value = oursLater ? ov : tv;
      else if (key === 'recovery_level') value = time(oo.last_boot) >= time(to.last_boot) ? ov : tv;
      else if (
        key === 'recent_next_actions' &&
        [bv, ov, tv].every((v) => v === undefined || Array.isArray(v))
      ) {
        const all = mergeSet((bv ?? []) as Obj[], (ov ?? []) as Obj[], (tv ?? []) as Obj[]);
        value = all.sort((x, y) => time(x.at) - time(y.at)).slice(-5);
      } else {
        conflict(ctx, ['stamp', key], `stamp.${key}`, bv, ov, tv);
        value = ov ?? tv;
      }
    }
    if (value !== undefined) out[key] = value;
  }
  return o === undefined && t === undefined ? undefined : out;
}

// When a side last acted: its own file's last_seen, else (the default agent in progress.yaml) its
// newest next action or checkpoint.
function lastActed(side: Obj): number {
  const stamp = obj(side.stamp);
  const history = Array.isArray(stamp.recent_next_actions) ? stamp.recent_next_actions : [];
  const last = history[history.length - 1] as Obj | undefined;
  return Math.max(time(side.last_seen), time(stamp.last_checkpoint), time(last?.at));
}

/** An agent's own keys that go together when both sides changed them: the later side's. */
const OWN_BLOCK = ['stage', 'next_action', 'current_step'];

/** Merges three versions of a progress file (plain values; base `{}` when there was none). */
export function mergeProgress(base: Obj, ours: Obj, theirs: Obj): MergeOutcome {
  const ctx: Ctx = { conflicts: [], decisions: [] };
  const markers: MarkerSides = {
    ours: new Set(Object.keys(obj(ours.markers))),
    theirs: new Set(Object.keys(obj(theirs.markers))),
  };
  const [oursTime, theirsTime] = [lastActed(ours), lastActed(theirs)];
  const value: Obj = {};
  for (const key of keysOf(ours, theirs, base)) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    let merged: unknown;
    switch (key) {
      case 'version':
        merged = pick3(b, o, t).conflict
          ? Math.max(Number(o) || 1, Number(t) || 1)
          : pick3(b, o, t).value;
        break;
      case 'revision':
        // Past both sides, so that a compare-and-swap on either side's revision fails.
        merged = Math.max(Number(b) || 0, Number(o) || 0, Number(t) || 0) + 1;
        break;
      case 'plan':
        merged = mergePlan(ctx, b, o, t, markers);
        break;
      case 'markers':
        merged = mergeMarkers(ctx, b, o, t);
        break;
      case 'memory':
        merged = mergeMemory(ctx, b, o, t);
        break;
      case 'reminders':
        merged = mergeStringList(ctx, ['reminders'], 'reminders', b, o, t);
        break;
      case 'stamp':
        merged = mergeStamp(ctx, b, o, t);
        break;
      case 'last_seen':
        merged = pick3(b, o, t).conflict ? (time(o) >= time(t) ? o : t) : pick3(b, o, t).value;
        break;
      case 'fingerprint': {
        const choice = pick3(b, o, t);
        merged = choice.value;
        if (choice.conflict) {
          if (isObj(o) && isObj(t) && time(o.at) !== time(t.at)) {
            ctx.decisions.push({ what: 'fingerprint', rule: 'the later checkpoint' });
            merged = time(o.at) > time(t.at) ? o : t;
          } else if (o === null || t === null) merged = o ?? t;
          else conflict(ctx, ['fingerprint'], 'fingerprint', b, o, t);
        }
        break;
      }
      default: {
        const choice = pick3(b, o, t);
        merged = choice.value;
        if (!choice.conflict) break;
        if (OWN_BLOCK.includes(key) && oursTime !== theirsTime) {
          ctx.decisions.push({ what: key, rule: 'the side that acted last' });
          merged = oursTime > theirsTime ? o : t;
        } else if (isObj(o) && isObj(t)) merged = mergeGeneric(ctx, [key], key, b, o, t);
        else conflict(ctx, [key], key, b, o, t);
      }
    }
    if (merged !== undefined) value[key] = merged;
  }
  return { value, conflicts: ctx.conflicts, decisions: ctx.decisions };
}
