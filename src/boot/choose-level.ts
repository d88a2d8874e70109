// Which recovery level a boot uses: the one asked for, or for `auto` the level the facts call
// for — 3 (rebuild) when the tree drifted, a completion marker went stale, or the agent is in a
// restart loop; 2 (restore) otherwise.
import type { Progress } from '../types.js';
import type { BootDrift, BootLevel, BootMarker, LevelChoice } from './types.js';

/**
 * Whether the agent is in a restart loop: `stamp.stalled_boots`, this boot counted, reached the
 * threshold (as the status bar's restart.loop signal counts). `progress` carries this boot's stamp.
 */
export function inRestartLoop(progress: Progress, threshold: number): boolean {
  return (progress.stamp?.stalled_boots ?? 0) >= threshold;
}

/** Chooses the level from the request and the live facts; `progress` carries this boot's stamp. */
export function chooseLevel(
  requested: BootLevel | 'auto',
  facts: { progress: Progress; markers: readonly BootMarker[]; drift: BootDrift | null },
  stallThreshold: number,
): LevelChoice {
  const staleMarkers = facts.markers.filter((m) => m.state === 'stale').map((m) => m.id);
  const drifted = facts.drift?.drifted === true;
  const restartLoop = inRestartLoop(facts.progress, stallThreshold);
  const base = { requested, restartLoop, staleMarkers, drifted };
  if (requested !== 'auto')
    return { ...base, level: requested, reason: `level ${requested} was asked for` };
  const causes: string[] = [];
  if (drifted) causes.push('the tree changed since the last checkpoint');
  if (staleMarkers.length > 0)
    causes.push(
      `${staleMarkers.length === 1 ? 'a done step is' : `${staleMarkers.length} done steps are`} stale (${staleMarkers.join(', ')})`,
    );
  if (restartLoop)
    causes.push(
      `a restart loop (${facts.progress.stamp?.stalled_boots ?? 0} boots since the last checkpoint that recorded progress)`,
    );
  if (causes.length > 0) return { ...base, level: 3, reason: `auto: ${causes.join('; ')}` };
  const drift = facts.drift === null ? 'no drift measured' : 'no drift';
  return { ...base, level: 2, reason: `auto: ${drift}, no stale marker, no restart loop` };
}
