// `boot` (I/O): read the state, gather the live state, judge them (src/recovery/rules.ts), count
// the boot and take the reminders under the state lock (so four boots at once show a reminder
// exactly once between them), then render. A boot writes only the local recovery record
// (.agent/log/recovery.json): never a committed file.
import { cachedConfig } from '../state/config-cache.js';
import { findRepo } from '../state/find-root.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { resolveAgent } from '../state/agent-name.js';
import { readGoals, withStateLock } from '../state/store.js';
import { readProgressFor } from '../task/load-state.js';
import { pendingReminders, reminderKey } from '../state/reminders.js';
import { existsSync } from 'node:fs';
import { agentsOverview } from '../task/agents-overview.js';
import { planClaims } from '../task/claims.js';
import type { StatePaths } from '../state/paths.js';
import { countBoot, digestProgress } from '../recovery/rules.js';
import type { RecoveryRecord } from '../recovery/record.js';
import { readRecovery, writeRecovery } from '../recovery/record-store.js';
import type { BaseOptions, Config, Progress, Reminder, Stamp, Warning } from '../types.js';
import { chooseLevel } from './choose-level.js';
import { heuristicCounter } from './heuristic-counter.js';
import { collectLiveState, prepareLiveState, type LiveState } from './live-state.js';
import { loadO200kCounter } from './o200k-counter.js';
import { renderBoot } from './render-boot.js';
import type {
  BootAgents,
  BootRecovery,
  BootRendering,
  RenderBootOptions,
  TokenCounter,
} from './types.js';

export interface BootOptions extends BaseOptions, Omit<RenderBootOptions, 'counter' | 'dryRun'> {
  /** Render without writing: nothing counted, no reminder consumed. */
  dryRun?: boolean;
  /** Count tokens with the heuristic instead of loading the o200k tokenizer. */
  fast?: boolean;
  /** A counter of your own (overrides `fast`). */
  counter?: TokenCounter;
  /**
   * The host session this boot is handed to (host hooks know it). A `boot` without one right
   * after a host's boot, with nothing done in between, repeats it and does not count as a restart.
   */
  session?: string | null;
}

/** The prompt plus what the boot counted. */
export interface BootResult extends BootRendering {
  dryRun: boolean;
  /**
   * progress.yaml's stamp with this worktree's counters (boots, stalled_boots, last_boot,
   * recovery_level, compactions) merged in, after this boot (for a dry run: what it would be).
   */
  stamp: Stamp;
  /** The local recovery record after this boot. */
  recovery: RecoveryRecord;
  revision: number;
  warnings: Warning[];
}

/**
 * Who is booting and the other active agents; null for a single unnamed agent (no agents/ folder
 * and no other worktree's agents looked for: its boot is what it always was).
 */
function bootAgents(
  paths: StatePaths,
  agent: string | null,
  progress: Progress,
  config: Config,
  now: Date,
  env: NodeJS.ProcessEnv | undefined,
): BootAgents | null {
  if (agent === null && !existsSync(paths.agentsDir)) return null;
  const overview = agentsOverview({ paths, env, now });
  const clock = { now, expireMinutes: config.agents.claim_expire_minutes };
  const others = overview.agents.filter(
    (a) => a.active && !(a.agent === agent && (agent !== null || a.here)),
  );
  const claims = planClaims(progress, clock)
    .filter((c) => c.agent === agent && !c.expired)
    .map((c) => c.item);
  return { self: agent, claims, others };
}

/** The stamp as a reader of 0.1.0's progress.yaml knew it: the committed part and the counters. */
export function stampView(progress: Progress, record: RecoveryRecord): Stamp {
  const stamp: Stamp = { ...(progress.stamp ?? {}) };
  stamp.boots = record.boots;
  stamp.last_boot = record.last_boot;
  stamp.recovery_level = record.recovery_level;
  stamp.stalled_boots = record.stalled_boots;
  stamp.compactions = record.compactions;
  stamp.last_compaction = record.last_compaction;
  return stamp;
}

interface Counted {
  progress: Progress;
  live: LiveState;
  recovery: BootRecovery;
  record: RecoveryRecord;
  reminders: Reminder[];
}

/** Emits the boot prompt of the task that `cwd` belongs to. */
export async function boot(options: BootOptions = {}): Promise<BootResult> {
  const now = (options.now ?? (() => new Date()))();
  const at = now.toISOString();
  const repo = findRepo(options.cwd);
  const { paths } = repo;
  const agent = resolveAgent(options);
  const config = await cachedConfig(paths);
  const requested = options.level ?? config.boot.level;
  const source = options.source ?? null;
  const session = options.session ?? null;
  // git starts working while the state files are read and the tokenizer loads.
  prepareLiveState(repo, options.env);
  const { goals, warnings } = readGoals(paths);
  const counting = options.counter
    ? Promise.resolve(options.counter)
    : options.fast
      ? Promise.resolve(heuristicCounter)
      : loadO200kCounter();
  const threshold = config.boot.stall_threshold;
  // Judges the live state, counts the boot and marks the reminders shown, on one reading of the state.
  const count = async (): Promise<Counted> => {
    const progress = valueOrThrow(readProgressFor(paths, agent));
    const live = await collectLiveState(repo, config, progress, options.env);
    const record = readRecovery(paths, progress.stamp, agent);
    const digest = digestProgress(progress, live.extras);
    const resume = source === 'resume';
    const boot = countBoot(record.last, { at, session, progress: digest, resume });
    const recovery: BootRecovery = {
      drift: live.verdict,
      stale: live.stale,
      stalled: boot.stalled,
      moved: boot.moved,
      boots: record.boots + 1,
      measured: live.drift !== null,
    };
    const level = chooseLevel(requested, recovery, threshold, source).level;
    const reminders = pendingReminders(progress, record.reminders_shown);
    record.boots += 1;
    record.last_boot = at;
    record.recovery_level = level;
    record.stalled_boots = boot.stalled;
    record.last = {
      at,
      // A repeat keeps the host's session: the restart it repeats is still the last one.
      session: boot.repeat ? (record.last?.session ?? null) : session,
      stalled: boot.stalled,
      progress: digest,
    };
    record.reminders_shown = [
      ...new Set([...record.reminders_shown, ...reminders.map(reminderKey)]),
    ];
    if (!options.dryRun) writeRecovery(paths, record, agent);
    return { progress, live, recovery, record, reminders };
  };
  const counted = options.dryRun
    ? await count()
    : await withStateLock(paths, count, { now: () => now });
  const { progress, live, recovery, record, reminders } = counted;
  const agents = bootAgents(paths, agent, progress, config, now, options.env);
  const rendering = renderBoot(
    {
      goals,
      progress,
      config,
      markers: live.markers,
      drift: live.drift,
      evidence: live.evidence,
      reminders,
      recovery,
      agents,
      stashed: live.stashed,
      now,
    },
    {
      level: requested,
      budget: options.budget,
      format: options.format,
      role: options.role,
      source,
      counter: await counting,
    },
  );
  return {
    ...rendering,
    dryRun: options.dryRun === true,
    stamp: stampView(progress, record),
    recovery: record,
    revision: progress.revision,
    // Empty goals sections are normal after init; only a missing or long anchor is worth a word.
    warnings: [...warnings.filter((w) => /anchor/.test(w.message)), ...live.warnings],
  };
}
