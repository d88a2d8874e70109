// What the next write of progress.yaml does for the local recovery record (I/O, under the state
// lock): the boot counters a 0.1.0 stamp still holds move into the record (which starts from
// them when it does not exist yet), and the reminders a boot has shown are removed from the file.
import type { StatePaths } from '../state/paths.js';
import { dropShownReminders } from '../state/reminders.js';
import type { Progress } from '../types.js';
import { dropLegacyCounters, hasLegacyCounters, newRecord } from '../recovery/record.js';
import { readStoredRecovery, writeRecovery } from '../recovery/record-store.js';

/** Applies both to `draft` (about to be written); call `written()` once the write succeeded. */
export function settleVolatile(
  paths: StatePaths,
  draft: Progress,
  agent: string | null = null,
): { written(): void } {
  const legacy = hasLegacyCounters(draft.stamp);
  const stored = readStoredRecovery(paths, agent);
  const shown = stored?.reminders_shown ?? [];
  if (shown.length > 0) dropShownReminders(draft, shown);
  if (legacy) {
    // The record first: if the write below fails, the counters are still somewhere.
    if (stored === null) writeRecovery(paths, newRecord(draft.stamp), agent);
    dropLegacyCounters(draft.stamp!);
  }
  return {
    written() {
      if (shown.length === 0 || stored === null) return;
      // The file holds none of the shown reminders now: their keys are done with.
      writeRecovery(paths, { ...stored, reminders_shown: [] }, agent);
    },
  };
}
