// What a boot left out, as the `omitted` field of its `boot` event: the prompt itself is gone once
// the agent has read it, so the log is where a person (or `agent-state ui`) sees later what the
// agent did not read, and the command that shows each part.
import type { BootOmission } from './types.js';

/** Ids listed per kind in the event (the count says how many there were in all). */
const MAX_IDS = 20;

/** One kind of thing a boot left out. */
export interface OmittedFact {
  kind: BootOmission['kind'];
  count: number;
  ids: string[];
  how: string;
}

/** The `omitted` field of a boot event (empty when the prompt left nothing out). */
export function omittedFact(omitted: readonly BootOmission[]): OmittedFact[] {
  return omitted.map((o) => ({
    kind: o.kind,
    count: o.count,
    ids: o.ids.slice(0, MAX_IDS),
    how: o.how,
  }));
}
