// A boot's `boot` event, the same from the CLI, the host hooks, the MCP server and the SDK
// adapters. Its `omitted` field says what the boot left out: the prompt is gone once read, so the
// log is where a person (or `agent-state ui`) later sees what the agent did not read.
import type { BootResult } from './boot.js';
import type { BootOmission } from './types.js';

/** One kind of thing a boot left out. */
export type OmittedFact = BootOmission;

/** The `omitted` field of a boot event: at most 20 ids per kind (`count` says how many in all). */
export function omittedFact(omitted: readonly BootOmission[]): OmittedFact[] {
  return omitted.map((o) => ({ ...o, ids: o.ids.slice(0, 20) }));
}

/** The `boot` event of a boot: its level, why, the restart-loop counter, what it left out. */
export const bootFact = (result: BootResult) => ({
  type: 'boot',
  level: result.level,
  stalled: result.choice.stalled,
  reason: result.choice.reason,
  ...(result.source ? { source: result.source } : {}),
  omitted: omittedFact(result.omitted),
});
