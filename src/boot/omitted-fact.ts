// What a boot left out, as its `boot` event's `omitted` field: the prompt is gone once read, so the
// log is where a person (or `agent-state ui`) later sees what the agent did not read.
import type { BootOmission } from './types.js';

/** One kind of thing a boot left out. */
export type OmittedFact = BootOmission;

/** The `omitted` field of a boot event: at most 20 ids per kind (`count` says how many in all). */
export function omittedFact(omitted: readonly BootOmission[]): OmittedFact[] {
  return omitted.map((o) => ({ ...o, ids: o.ids.slice(0, 20) }));
}
