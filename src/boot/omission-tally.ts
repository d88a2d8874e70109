// What the cut blocks were, by kind: their distinct ids, how many blocks, and how to get them
// back. The fitter keeps one up to date as it cuts (the header names it after every cut); the
// rendering makes one from the final cut set, in document order.
import type { Block, Section } from './model.js';
import type { BootOmission } from './types.js';

/** The omissions of a cut set, by kind. */
export type OmissionTally = Map<
  BootOmission['kind'],
  { ids: Set<string>; blocks: number; how: string }
>;

/** Counts one cut block in the tally. */
export function tallyBlock(tally: OmissionTally, block: Block): void {
  if (!block.omission) return;
  const { kind, id, how } = block.omission;
  let entry = tally.get(kind);
  if (!entry) tally.set(kind, (entry = { ids: new Set(), blocks: 0, how }));
  entry.blocks++;
  if (id !== undefined) entry.ids.add(id);
}

/** The tally of every block of `sections` in `removed`, in document order. */
export function tallyOmissions(
  sections: readonly Section[],
  removed: ReadonlySet<Block>,
): OmissionTally {
  const tally: OmissionTally = new Map();
  if (removed.size === 0) return tally;
  for (const section of sections)
    for (const block of section.blocks) if (removed.has(block)) tallyBlock(tally, block);
  return tally;
}
