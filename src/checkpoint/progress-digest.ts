// What "progress changed" means for stalled_boots (pure): the stage, the next action, every plan
// item's status and the completion markers (ids and times). A checkpoint whose digest differs
// from the previous checkpoint's resets stalled_boots; notes, memory and reminders do not count.
import { createHash } from 'node:crypto';
import type { Progress } from '../types.js';

/** `sha256:` of the parts of `progress` that count as progress. */
export function progressDigest(progress: Progress): string {
  const markers = Object.entries(progress.markers ?? {})
    .map(([id, marker]) => [id, marker.at])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  const parts = {
    stage: progress.stage ?? '',
    next_action: progress.next_action ?? '',
    plan: (progress.plan ?? []).map((item) => [item.id, item.status]),
    markers,
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
