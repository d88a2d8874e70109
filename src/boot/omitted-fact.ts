// What a boot left out, as the `omitted` field of its `boot` event: the prompt itself is gone once
// the agent has read it, so the log is where a person (or `agent-state ui`) sees later what the
// agent did not read, and the command that shows each part.
import type { BootOmission } from './types.js';

/** One kind of thing a boot left out. */
export type OmittedFact = BootOmission;

/** The `omitted` field of a boot event: at most 20 ids per kind (`count` says how many in all). */
export function omittedFact(omitted: readonly BootOmission[]): OmittedFact[] {
  return omitted.map((o) => ({
    kind: o.kind,
    count: o.count,
    ids: o.ids.slice(0, 20),
    how: o.how,
  }));
}
