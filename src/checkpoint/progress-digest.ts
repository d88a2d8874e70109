// What a checkpoint records as "the progress it vouches for" (pure): the stage, the next action,
// every plan item's status and the completion markers (ids and times). The Stop and PreCompact
// hooks compare it with the last checkpoint's to ask for a checkpoint when it moved. (What counts
// as progress between two boots, for the restart loop, is src/recovery/rules.ts.)
import { createHash } from '../text/lazy-crypto.js';
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
