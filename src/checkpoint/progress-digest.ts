// The progress a checkpoint vouches for (pure): stage, next action, plan statuses, markers (ids and
// times); Stop and PreCompact ask for a checkpoint when it moved (boots: src/recovery/rules.ts).
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
