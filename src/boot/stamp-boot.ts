// The stamp (pure, on a progress value): every boot that is not a dry run counts itself, and so
// does every compaction a host announces.
// `stalled_boots` counts boots since the last checkpoint that recorded progress (a checkpoint
// resets it), so a high number means the agent keeps restarting without getting anywhere.
import type { Progress } from '../types.js';
import type { BootLevel } from './types.js';

/** Counts a boot: boots + 1, stalled_boots + 1, last_boot = now. */
export function stampBoot(progress: Progress, now: Date): void {
  const stamp = (progress.stamp ??= {});
  stamp.boots = (stamp.boots ?? 0) + 1;
  stamp.stalled_boots = (stamp.stalled_boots ?? 0) + 1;
  stamp.last_boot = now.toISOString();
}

/** Records the level the boot used. */
export function stampLevel(progress: Progress, level: BootLevel): void {
  (progress.stamp ??= {}).recovery_level = level;
}

/** Counts a compaction a host announced: compactions + 1, last_compaction = now. */
export function stampCompaction(progress: Progress, now: Date): void {
  const stamp = (progress.stamp ??= {});
  stamp.compactions = (stamp.compactions ?? 0) + 1;
  stamp.last_compaction = now.toISOString();
}
