// `boot` (I/O): read the state, gather the live facts, stamp the boot and take the reminders under
// the lock (so four boots at once show a reminder exactly once between them), then render.
import { findRepo } from '../state/repo.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { resolveAgent } from '../agents/agent-name.js';
import { readConfig, readGoals, readProgressFor, updateProgress } from '../state/store.js';
import { takeReminders } from '../state/reminders.js';
import { existsSync } from 'node:fs';
import { agentsOverview } from '../agents/agents-overview.js';
import { planClaims } from '../agents/claims.js';
import type { StatePaths } from '../state/paths.js';
import type { BaseOptions, Config, Progress, Reminder, Stamp, Warning } from '../types.js';
import { chooseLevel } from './choose-level.js';
import { heuristicCounter } from './heuristic-counter.js';
import { collectLiveFacts, prepareLiveFacts, type LiveFacts } from './live-facts.js';
import { loadO200kCounter } from './o200k-counter.js';
import { renderBoot } from './render-boot.js';
import { stampBoot, stampLevel } from './stamp-boot.js';
import type { BootAgents, BootRendering, RenderBootOptions, TokenCounter } from './types.js';

export interface BootOptions extends BaseOptions, Omit<RenderBootOptions, 'counter' | 'dryRun'> {
  /** Render without writing: no stamp, no reminder consumed. */
  dryRun?: boolean;
  /** Count tokens with the heuristic instead of loading the o200k tokenizer. */
  fast?: boolean;
  /** A counter of your own (overrides `fast`). */
  counter?: TokenCounter;
}

/** The prompt plus what the boot did to the state. */
export interface BootResult extends BootRendering {
  dryRun: boolean;
  /** The stamp after this boot (for a dry run: what it would be). */
  stamp: Stamp;
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

/** Emits the boot prompt of the task that `cwd` belongs to. */
export async function boot(options: BootOptions = {}): Promise<BootResult> {
  const now = (options.now ?? (() => new Date()))();
  const repo = findRepo(options.cwd);
  const { paths } = repo;
  const agent = resolveAgent(options);
  const config = valueOrThrow(readConfig(paths));
  const requested = options.level ?? config.boot.level;
  const needs = { markers: requested !== 1, drift: requested === 3 || requested === 'auto' };
  // git starts working while the state files are read and the tokenizer loads.
  prepareLiveFacts(repo, needs, options.env);
  const { goals, warnings } = readGoals(paths);
  const counting = options.counter
    ? Promise.resolve(options.counter)
    : options.fast
      ? Promise.resolve(heuristicCounter)
      : loadO200kCounter();
  const threshold = config.boot.stall_threshold;
  let facts: LiveFacts;
  // Stamps the boot on `p` and takes its reminders, judging the facts on that same progress.
  const apply = async (p: Progress): Promise<Reminder[]> => {
    facts = await collectLiveFacts(repo, config, p, needs, options.env);
    stampBoot(p, now);
    stampLevel(p, chooseLevel(requested, { ...facts, progress: p }, threshold).level);
    return takeReminders(p);
  };
  let progress: Progress;
  let reminders: Reminder[];
  if (options.dryRun) {
    progress = valueOrThrow(readProgressFor(paths, agent));
    reminders = await apply(progress);
  } else {
    // Under the lock, on a fresh copy: of several boots at once, exactly one takes the reminders.
    const update = await updateProgress(apply, { cwd: paths.root, now: () => now, agent });
    progress = update.progress;
    reminders = update.result;
  }
  facts = facts!;
  const agents = bootAgents(paths, agent, progress, config, now, options.env);
  const rendering = renderBoot(
    { goals, progress, config, ...facts, reminders, agents, now },
    {
      level: requested,
      budget: options.budget,
      format: options.format,
      role: options.role,
      source: options.source,
      counter: await counting,
    },
  );
  return {
    ...rendering,
    dryRun: options.dryRun === true,
    stamp: progress.stamp ?? {},
    revision: progress.revision,
    // Empty goals sections are normal after init; only a missing or long anchor is worth a word.
    warnings: [...warnings.filter((w) => /anchor/.test(w.message)), ...facts.warnings],
  };
}
