// The JSON document of a boot (`--format json` and `--json`): every section with its text and
// token count, the totals and what was omitted. Stable shape, snake_case keys (docs/cli.md).
import { redactValue } from '../text/redact.js';
import { safeValue } from '../text/safe-text.js';
import type { Reminder, Stamp } from '../types.js';
import type { BootOmission, BootRendering } from './types.js';

export interface BootDocument {
  level: 1 | 2 | 3;
  level_name: string;
  requested_level: 1 | 2 | 3 | 'auto';
  level_reason: string;
  restart_loop: boolean;
  /** Boots in a row with no progress between them, this one included. */
  stalled_boots: number;
  stale_markers: string[];
  /** Anything differs from the last checkpoint (the agent's own changes included). */
  drifted: boolean;
  /** Something differs that no recorded fact of the agent explains. */
  foreign_drift: boolean;
  /** The agent's own changes since the last checkpoint: files, and commits (short sha). */
  own_changes: { files: string[]; commits: string[] };
  role: string;
  source: string | null;
  format: string;
  dry_run: boolean;
  tokens: {
    total: number;
    budget: number;
    multiplier: number;
    counter: string;
    must_keep: number;
    over_budget: boolean;
    by_layer: Record<string, number>;
  };
  sections: {
    key: string;
    title: string;
    layer: string;
    text: string;
    tokens: number;
    must_keep: boolean;
  }[];
  omitted: BootOmission[];
  reminders: Reminder[];
  stamp: Stamp | null;
  /** The prompt as printed (Markdown for the json format); `tokens.total` counts exactly this. */
  text: string;
}

/** Builds the JSON document of a rendering (plus the boot's stamp when there was a boot). */
export function bootDocument(
  rendering: BootRendering,
  extra: { dryRun?: boolean; stamp?: Stamp } = {},
): BootDocument {
  return {
    level: rendering.level,
    level_name: rendering.levelName,
    requested_level: rendering.choice.requested,
    level_reason: rendering.choice.reason,
    restart_loop: rendering.choice.restartLoop,
    stalled_boots: rendering.choice.stalled,
    stale_markers: rendering.choice.staleMarkers,
    drifted: rendering.choice.drifted,
    foreign_drift: rendering.choice.foreignDrift,
    own_changes: rendering.choice.ownChanges,
    role: rendering.role,
    source: rendering.source,
    format: rendering.format,
    dry_run: extra.dryRun === true,
    tokens: {
      total: rendering.tokens.total,
      budget: rendering.tokens.budget,
      multiplier: rendering.tokens.multiplier,
      counter: rendering.tokens.counter,
      must_keep: rendering.tokens.mustKeep,
      over_budget: rendering.tokens.overBudget,
      by_layer: rendering.tokens.byLayer,
    },
    sections: rendering.sections,
    omitted: rendering.omitted,
    // Stored text, shown to a model like the prompt's: redacted, control characters made visible.
    reminders: safeValue(redactValue(rendering.reminders)),
    stamp: safeValue(redactValue(extra.stamp ?? null)),
    text: rendering.text,
  };
}
