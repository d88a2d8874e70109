// Every agent across the repository's worktrees (I/O), for `status --all`, a boot and `plan claim`:
// a named agent read where it last acted (newest last_seen), each worktree's default agent there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readStoredRecovery } from '../recovery/record-store.js';
import { AgentStateError } from '../errors.js';
import { hasLinkedWorktrees, listWorktrees, type Worktree } from '../git/worktrees.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { statePaths, type StatePaths } from '../state/paths.js';
import { listDir } from '../state/find-root.js';
import { readAgentProgress, readConfig, readProgress } from '../state/store.js';
import { AGENT_NAME } from '../state/agent-name.js';
import type { Progress } from '../types.js';
import { planClaims, type ClaimClock, type ClaimState } from './claims.js';

/** One agent as the others see it: the typed shape of `status --all`, the boot and the UI. */
export interface AgentView {
  /** Its name; null for a worktree's default agent (no name). */
  agent: string | null;
  /** The worktree whose copy this is (absolute). */
  worktree: string;
  branch: string | null;
  stage: string | null;
  next_action: string | null;
  current_step: { id: string | null; objective: string | null } | null;
  /** When it last wrote the state; for a default agent, its last next action or checkpoint. */
  last_seen: string | null;
  /** Its claims (live and expired) in that worktree's plan. */
  claims: ClaimState[];
  /** Seen within agents.claim_expire_minutes, or holding a live claim. */
  active: boolean;
  /** In the worktree the overview was made from. */
  here: boolean;
}

/** One worktree and what its state says. */
export interface WorktreeView {
  path: string;
  branch: string | null;
  head: string | null;
  /** `ok`; `none`: no .agent/ there; `invalid`: a state file does not parse (see `problem`). */
  state: 'ok' | 'none' | 'invalid';
  problem: string | null;
  /** The agents whose files are in this worktree's copy. */
  agents: string[];
}

export interface AgentsOverview {
  worktrees: WorktreeView[];
  /** Every agent once (named agents from where they last acted), most recently seen first. */
  agents: AgentView[];
}

/** The agents with an own file (agents/<name>/), sorted; `invalid`: folders named no agent name. */
export function listAgentFiles(paths: StatePaths): { names: string[]; invalid: string[] } {
  const names: string[] = [];
  const invalid: string[] = [];
  for (const name of listDir(paths.agentsDir).sort())
    if (existsSync(join(paths.agentsDir, name, 'progress.yaml')))
      (AGENT_NAME.test(name) ? names : invalid).push(name);
  return { names, invalid };
}

function time(iso: string | null | undefined): number {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

function latest(...isos: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const iso of isos) if (iso && time(iso) > time(best)) best = iso;
  return best;
}

function view(
  agent: string | null,
  own: Progress,
  shared: Progress,
  where: { worktree: string; branch: string | null; here: boolean },
  clock: ClaimClock,
  paths: StatePaths,
): AgentView {
  const lastBoot = readStoredRecovery(paths, agent)?.last_boot;
  const history = own.stamp?.recent_next_actions ?? [];
  // A boot writes no state file (only the agent's local recovery record): it counts as seen too.
  const lastSeen =
    agent === null
      ? latest(own.stamp?.last_checkpoint, history[history.length - 1]?.at, lastBoot)
      : latest(own.last_seen, lastBoot);
  const claims = planClaims(shared, clock).filter((c) => c.agent === agent);
  const step = own.current_step;
  return {
    agent,
    ...where,
    stage: own.stage ?? null,
    next_action: own.next_action?.trim() ? own.next_action : null,
    current_step:
      step && (step.id || step.objective)
        ? { id: step.id ?? null, objective: step.objective ?? null }
        : null,
    last_seen: lastSeen,
    claims,
    active:
      claims.some((c) => !c.expired) ||
      clock.now.getTime() - time(lastSeen) < clock.expireMinutes * 60_000,
  };
}

// The agents of one worktree's copy of the state.
function readWorktree(
  paths: StatePaths,
  tree: Pick<Worktree, 'path' | 'branch' | 'head'>,
  here: boolean,
  clock: ClaimClock,
): { worktree: WorktreeView; agents: AgentView[] } {
  const { path, branch, head } = tree;
  const worktree: WorktreeView = { path, branch, head, state: 'ok', problem: null, agents: [] };
  if (!existsSync(paths.progress)) return { worktree: { ...worktree, state: 'none' }, agents: [] };
  const where = { worktree: path, branch, here };
  try {
    const shared = valueOrThrow(readProgress(paths));
    const agents: AgentView[] = [];
    const fallback = view(null, shared, shared, where, clock, paths);
    // A default agent that never set a next action nor checkpointed is not worth a line.
    if (fallback.next_action !== null || fallback.last_seen !== null || fallback.claims.length)
      agents.push(fallback);
    for (const name of listAgentFiles(paths).names) {
      const own = valueOrThrow(readAgentProgress(paths, name));
      agents.push(view(name, own, shared, where, clock, paths));
      worktree.agents.push(name);
    }
    return { worktree, agents };
  } catch (error) {
    if (!(error instanceof AgentStateError)) throw error;
    return { worktree: { ...worktree, state: 'invalid', problem: error.message }, agents: [] };
  }
}

export interface OverviewOptions {
  /** The state root the overview is made from. */
  paths: StatePaths;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  /** Look into the repository's other worktrees too (git worktree list). Default true. */
  worktrees?: boolean;
}

/** Every agent of the repository (or of this worktree only), with the worktrees read. */
export function agentsOverview(options: OverviewOptions): AgentsOverview {
  const { paths } = options;
  const now = options.now ?? new Date();
  const expireMinutes = valueOrThrow(readConfig(paths)).agents.claim_expire_minutes;
  const clock = { now, expireMinutes };
  const trees: Pick<Worktree, 'path' | 'branch' | 'head'>[] =
    options.worktrees !== false && hasLinkedWorktrees(paths.root)
      ? listWorktrees(paths.root, options.env).filter((w) => !w.bare)
      : [];
  if (!trees.some((t) => t.path === paths.root))
    trees.unshift({ path: paths.root, branch: null, head: null });
  const worktrees: WorktreeView[] = [];
  const named = new Map<string, AgentView>();
  const unnamed: AgentView[] = [];
  for (const tree of trees) {
    const here = tree.path === paths.root;
    const read = readWorktree(here ? paths : statePaths(tree.path), tree, here, clock);
    worktrees.push(read.worktree);
    for (const agent of read.agents) {
      if (agent.agent === null) {
        unnamed.push(agent);
        continue;
      }
      const seen = named.get(agent.agent);
      if (!seen || time(agent.last_seen) > time(seen.last_seen)) named.set(agent.agent, agent);
    }
  }
  const agents = [...named.values(), ...unnamed].sort(
    (a, b) =>
      time(b.last_seen) - time(a.last_seen) || String(a.agent).localeCompare(String(b.agent)),
  );
  return { worktrees, agents };
}

/** Live claims of agents other than `agent` in the other worktrees, by item id. */
export function foreignClaims(
  paths: StatePaths,
  agent: string | null,
  now: Date,
  env?: NodeJS.ProcessEnv,
): Map<string, ClaimState> {
  const claims = new Map<string, ClaimState>();
  if (!hasLinkedWorktrees(paths.root)) return claims;
  for (const other of agentsOverview({ paths, env, now }).agents) {
    if (other.here || other.agent === agent) continue;
    for (const claim of other.claims) if (!claim.expired) claims.set(claim.item, claim);
  }
  return claims;
}
