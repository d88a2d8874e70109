// Which recovery level a boot uses (pure): the one asked for, or for `auto` what the facts call
// for. Only foreign drift or a real restart loop calls for 3 (a rebuild, rescan allowed); the
// agent's own uncheckpointed work and own stale markers are named at every level instead. A
// resume is level 1 unless a level-3 cause exists; anything else is level 2.
import {
  inRestartLoop,
  judgeDrift,
  judgeStale,
  NO_OWN_FACTS,
  UNRECORDED,
} from '../recovery/rules.js';
import { plural, shortList } from '../text/plural.js';
import type { BootContext, BootLevel, BootRecovery, BootSource } from './types.js';

/** A context's recovery verdicts; without them: changes unrecorded, the stamp's loop count. */
export function contextRecovery(
  context: Pick<BootContext, 'progress' | 'markers' | 'drift' | 'recovery'>,
): BootRecovery {
  if (context.recovery) return context.recovery;
  const tree = { states: {}, mtimes: {} };
  const drift = judgeDrift(context.drift, NO_OWN_FACTS, tree);
  const stale = context.markers.filter((m) => m.state === 'stale');
  const stamp = context.progress.stamp ?? {};
  return {
    drift,
    stale: judgeStale(stale, drift, NO_OWN_FACTS, tree),
    stalled: stamp.stalled_boots ?? 0,
    moved: [],
    boots: stamp.boots ?? 0,
    measured: context.drift !== null,
  };
}

// The level-3 causes: foreign drift, stale markers a foreign change explains (and the drift did
// not already name), a restart loop. An unrecorded change is none: nothing says whose it is.
function rebuildCauses(recovery: BootRecovery, threshold: number): string[] {
  const causes = [...recovery.drift.causes];
  const named = new Set(recovery.drift.foreignFiles.map((f) => f.path));
  for (const marker of recovery.stale) {
    const foreign = marker.files.filter(
      (f) => !f.own && f.why !== UNRECORDED && !named.has(f.path),
    );
    if (foreign.length > 0)
      causes.push(
        `${marker.id} is stale from a change no recorded edit of yours explains (${foreign.map((f) => f.path).join(', ')})`,
      );
  }
  if (inRestartLoop(recovery.stalled, threshold))
    causes.push(
      `a restart loop (${plural(recovery.stalled, 'boot')} in a row with no progress between them)`,
    );
  return causes;
}

// What is true but calls for no rebuild: the agent's own uncheckpointed work and stale steps.
function ownNotes(recovery: BootRecovery): string[] {
  const { ownFiles, ownCommits } = recovery.drift;
  const parts = [
    ownFiles.length ? plural(ownFiles.length, 'file') : '',
    ownCommits.length ? plural(ownCommits.length, 'commit') : '',
  ].filter(Boolean);
  const unrecorded = recovery.drift.unrecordedFiles.map((f) => f.path);
  const ownStale = recovery.stale.filter((m) => m.own).map((m) => m.id);
  const unrecordedStale = recovery.stale.filter((m) => m.unrecorded).map((m) => m.id);
  return [
    parts.length && `your uncheckpointed changes: ${parts.join(' and ')}`,
    unrecorded.length &&
      `unrecorded changes: ${plural(unrecorded.length, 'file')} (${shortList(unrecorded, 3)})`,
    ownStale.length && `stale from your own edits: ${ownStale.join(', ')}`,
    unrecordedStale.length && `stale from unrecorded changes: ${unrecordedStale.join(', ')}`,
  ].filter((note) => typeof note === 'string');
}

/** Why the level is what it is. */
export type LevelChoice = ReturnType<typeof chooseLevel>;

/** Chooses the level from the request, the recovery verdicts and why the host boots. */
export function chooseLevel(
  requested: BootLevel | 'auto',
  recovery: BootRecovery,
  stallThreshold: number,
  source: BootSource | null = null,
) {
  const causes = rebuildCauses(recovery, stallThreshold);
  const { drift } = recovery;
  const own = drift.ownFiles.length + drift.ownCommits.length + drift.unrecordedFiles.length;
  const notes = ownNotes(recovery);
  const tail = notes.length ? `; ${notes.join('; ')}` : '';
  const measured = recovery.measured ? 'no foreign drift' : 'no checkpoint yet to compare with';
  const why = `${measured}, no restart loop${tail}`;
  const facts = causes.length ? causes.join('; ') : 'no foreign drift, no restart loop';
  const [level, reason]: [BootLevel, string] =
    requested !== 'auto'
      ? [requested, `level ${requested} was asked for (${facts}${tail})`]
      : causes.length > 0
        ? [3, `auto: ${facts}${tail}`]
        : source === 'resume'
          ? [1, `auto, resume: ${why}`]
          : [2, `auto: ${why}`];
  return {
    level,
    requested,
    /** One short sentence naming the facts that chose the level. */
    reason,
    restartLoop: inRestartLoop(recovery.stalled, stallThreshold),
    /** Boots in a row with no progress between them, this one included. */
    stalled: recovery.stalled,
    staleMarkers: recovery.stale.map((m) => m.id),
    /** Anything differs from the last checkpoint (own or foreign). */
    drifted: drift.foreign || own > 0,
    /** Something differs that no recorded fact of the agent explains (a level-3 cause). */
    foreignDrift: drift.foreign,
    /** The agent's own changes since the last checkpoint: files, then commits (short sha). */
    ownChanges: {
      files: drift.ownFiles.map((f) => f.path),
      commits: drift.ownCommits.map((c) => c.sha.slice(0, 7)),
    },
  };
}
