// Three-way merges of ordered lists by key (pure). Both sides' additions are kept, each after the
// item it was added after; what either side removed is gone. The result does not depend on which
// side is "ours": where both sides added at the same place, their runs are ordered by first key.
// Whether two plain values are equal (absent equals absent).
import { isDeepStrictEqual as same } from 'node:util';

/** The three-way choice: the side that changed, or `conflict` when both changed differently. */
export function pick3<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (same(ours, theirs) || same(base, theirs)) return { value: ours, conflict: false };
  if (same(base, ours)) return { value: theirs, conflict: false };
  return { value: ours === undefined ? theirs : ours, conflict: true };
}

const START = '\u0000start';

// Runs at one place, in an order that does not depend on the side: key by key, then by length.
function compareRuns(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

// The runs of keys a side added, by the key of the common ancestor they follow.
function addedRuns(base: ReadonlySet<string>, side: readonly string[]): Map<string, string[][]> {
  const runs = new Map<string, string[][]>();
  let anchor = START;
  let run: string[] | null = null;
  for (const key of side) {
    if (base.has(key)) {
      [anchor, run] = [key, null];
      continue;
    }
    if (run === null) runs.set(anchor, [...(runs.get(anchor) ?? []), (run = [])]);
    run.push(key);
  }
  return runs;
}

/**
 * The merged order of keys: the ancestor's order for the keys it had (those `keep` accepts), and
 * each side's added keys after the key they followed on that side.
 */
export function mergeOrder(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  keep: (key: string) => boolean,
): string[] {
  const baseSet = new Set(base);
  const [fromOurs, fromTheirs] = [addedRuns(baseSet, ours), addedRuns(baseSet, theirs)];
  // A Set keeps the first place of a key both sides added.
  const out = new Set<string>();
  const emitRuns = (anchor: string) => {
    const runs = [...(fromOurs.get(anchor) ?? []), ...(fromTheirs.get(anchor) ?? [])];
    for (const run of runs.sort(compareRuns)) for (const key of run) out.add(key);
  };
  emitRuns(START);
  for (const key of base) {
    if (keep(key)) out.add(key);
    emitRuns(key);
  }
  return [...out];
}

/** A list merged as a set of values (by their JSON): additions of both sides, removals of either. */
export function mergeSet<T>(base: readonly T[], ours: readonly T[], theirs: readonly T[]): T[] {
  const key = (value: T) => JSON.stringify(value);
  const values = new Map<string, T>();
  for (const value of [...base, ...ours, ...theirs]) values.set(key(value), value);
  const b = base.map(key);
  const o = new Set(ours.map(key));
  const t = new Set(theirs.map(key));
  const order = mergeOrder(b, ours.map(key), theirs.map(key), (k) => o.has(k) && t.has(k));
  return order.map((k) => values.get(k)!);
}
