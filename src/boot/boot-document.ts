// The JSON document of a boot (`--format json` and `--json`): every section with its text and
// token count, the totals and what was omitted. Stable shape, snake_case keys (docs/cli.md).
import { redactValue } from '../text/redact.js';
import { safeValue } from '../text/safe-text.js';
import type { Stamp } from '../types.js';
import type { BootRendering } from './render-boot.js';

/** The JSON document of a boot. */
export type BootDocument = ReturnType<typeof bootDocument>;

/** Builds the JSON document of a rendering (plus the boot's stamp when there was a boot). */
export function bootDocument(
  rendering: BootRendering,
  extra: { dryRun?: boolean; stamp?: Stamp } = {},
) {
  const { choice } = rendering;
  const { mustKeep, overBudget, byLayer, ...tokens } = rendering.tokens;
  return {
    level: rendering.level,
    level_name: rendering.levelName,
    requested_level: choice.requested,
    level_reason: choice.reason,
    restart_loop: choice.restartLoop,
    /** Boots in a row with no progress between them, this one included. */
    stalled_boots: choice.stalled,
    stale_markers: choice.staleMarkers,
    /** Anything differs from the last checkpoint (the agent's own changes included). */
    drifted: choice.drifted,
    /** Something differs that no recorded fact of the agent explains. */
    foreign_drift: choice.foreignDrift,
    /** The agent's own changes since the last checkpoint: files, and commits (short sha). */
    own_changes: choice.ownChanges,
    role: rendering.role,
    source: rendering.source,
    format: rendering.format,
    dry_run: extra.dryRun === true,
    tokens: { ...tokens, must_keep: mustKeep, over_budget: overBudget, by_layer: byLayer },
    sections: rendering.sections,
    omitted: rendering.omitted,
    // Stored text, shown to a model like the prompt's: redacted, control characters made visible.
    reminders: safeValue(redactValue(rendering.reminders)),
    stamp: safeValue(redactValue(extra.stamp ?? null)),
    /** The prompt as printed (Markdown for the json format); `tokens.total` counts exactly this. */
    text: rendering.text,
  };
}
