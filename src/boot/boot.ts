// `boot` (I/O): read and judge the state, count the boot and take the reminders under the state
// lock (four boots at once show a reminder exactly once), then render. A boot writes only the
// local recovery record (.agent/log/recovery.json), never a committed file.
import { cachedConfig } from '../state/config-cache.js';
import { findRepo, type Repo } from '../state/find-root.js';
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
import { LEGACY_STAMP_KEYS, type RecoveryRecord } from '../recovery/record.js';
import { readRecovery, writeRecovery } from '../recovery/record-store.js';
import type { BaseOptions, Config, Progress, Stamp, Warning } from '../types.js';
import { chooseLevel } from './choose-level.js';
import { collectLiveState } from './live-state.js';
import { heuristicCounter, loadO200kCounter } from './o200k-counter.js';
import { renderBoot, type BootRendering } from './render-boot.js';
import type { BootAgents, BootRecovery, RenderBootOptions, TokenCounter } from './types.js';

export interface BootOptions extends BaseOptions, Omit<RenderBootOptions, 'counter' | 'dryRun'> {
  /** Render without writing: nothing counted, no reminder consumed. */
  dryRun?: boolean;
  /** Count tokens with the heuristic instead of loading the o200k tokenizer. */
  fast?: boolean;
  /** A counter of your own (overrides `fast`). */
  counter?: TokenCounter;
  /** The host session this boot is handed to (a session-less boot right after it repeats it). */
  session?: string | null;
  /** The state root and git top level, when the caller already found them. */
  repo?: Repo;
}

/** The prompt plus what the boot counted. */
export interface BootResult extends BootRendering {
  dryRun: boolean;
  /** progress.yaml's stamp with this worktree's counters, after this boot (see stampView). */
  stamp: Stamp;
  /** The local recovery record after this boot. */
  recovery: RecoveryRecord;
  revision: number;
  warnings: Warning[];
}

/** Who is booting and the other active agents; null for a single unnamed agent (none looked up). */
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
  return { ...progress.stamp, ...Object.fromEntries(LEGACY_STAMP_KEYS.map((k) => [k, record[k]])) };
}

/** Emits the boot prompt of the task that `cwd` belongs to. */
export async function boot(options: BootOptions = {}): Promise<BootResult> {
  const now = (options.now ?? (() => new Date()))();
  const at = now.toISOString();
  const repo = options.repo ?? findRepo(options.cwd);
  const { paths } = repo;
  const agent = resolveAgent(options);
  const config = await cachedConfig(paths);
  const requested = options.level ?? config.boot.level;
  const source = options.source ?? null;
  const session = options.session ?? null;
  const counting = options.counter ?? (options.fast ? heuristicCounter : loadO200kCounter());
  const threshold = config.boot.stall_threshold;
  // Judges the live state, counts the boot and marks the reminders shown, on one reading of the state.
  const count = async (read = readGoals(paths)) => {
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
    return { read, progress, live, recovery, record, reminders };
  };
  const { read, progress, live, recovery, record, reminders } = options.dryRun
    ? await count()
    : await withStateLock(paths, count, { now: () => now });
  const agents = bootAgents(paths, agent, progress, config, now, options.env);
  // The live state holds the context's markers, drift, evidence and stash entries.
  const context = {
    goals: read.goals,
    progress,
    config,
    ...live,
    reminders,
    recovery,
    agents,
    now,
  };
  const { budget, format, role } = options;
  const counter = await counting;
  const shown = renderBoot(context, { level: requested, budget, format, role, source, counter });
  return {
    ...shown,
    dryRun: options.dryRun === true,
    stamp: stampView(progress, record),
    recovery: record,
    revision: progress.revision,
    // Empty goals sections are normal after init; only a missing or long anchor is worth a word.
    warnings: [...read.warnings.filter((w) => /anchor/.test(w.message)), ...live.warnings],
  };
}
