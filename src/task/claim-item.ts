// `plan claim` / `plan release` (I/O): with other worktrees also under a lock they all share, after
// reading their claims, so that two agents in two worktrees cannot claim one item at one instant.
import { join } from 'node:path';
import { gitCommonDir, hasLinkedWorktrees } from '../git/worktrees.js';
import { findRoot } from '../state/find-root.js';
import { acquireLock } from '../state/lock.js';
import { valueOrThrow } from '../state/parsed-file.js';
import type { StatePaths } from '../state/paths.js';
import { readConfig } from '../state/store.js';
import { updateProgress, type UpdateOptions, type UpdateResult } from './update-progress.js';
import { resolveAgent } from '../state/agent-name.js';
import { foreignClaims } from './agents-overview.js';
import {
  claimPlanItem,
  heldByError,
  releasePlanItem,
  type ClaimResult,
  type ClaimState,
} from './claims.js';

/** The lock every worktree of a repository takes to claim (in the git directory they share). */
export const CLAIMS_LOCK = 'agent-state-claims.lock';

async function withRepositoryLock<T>(
  paths: StatePaths,
  options: UpdateOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const common = hasLinkedWorktrees(paths.root) ? gitCommonDir(paths.root, options.env) : null;
  if (common === null) return fn();
  const lock = await acquireLock(join(common, CLAIMS_LOCK), { ...options, display: CLAIMS_LOCK });
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

function clockOf(paths: StatePaths, options: UpdateOptions) {
  const now = (options.now ?? (() => new Date()))();
  return { now, expireMinutes: valueOrThrow(readConfig(paths)).agents.claim_expire_minutes };
}

/** Claims `id` for the acting (named) agent; another's live claim in any worktree refuses it. */
export async function claimItem(
  id: string,
  options: UpdateOptions = {},
): Promise<UpdateResult<ClaimResult>> {
  const paths = findRoot(options.cwd);
  const agent = resolveAgent(options);
  return withRepositoryLock(paths, options, () => {
    const clock = clockOf(paths, options);
    const elsewhere = foreignClaims(paths, agent, clock.now, options.env).get(id);
    return updateProgress(
      (p) => {
        if (elsewhere && !options.force) throw heldByError(elsewhere, '', clock.now);
        return claimPlanItem(p, id, agent, clock, options.force);
      },
      { ...options, now: () => clock.now },
    );
  });
}

/** Releases the acting agent's claim on `id` (another agent's live claim only with `force`). */
export async function releaseItem(
  id: string,
  options: UpdateOptions = {},
): Promise<UpdateResult<{ item: ClaimResult['item']; released: ClaimState | null }>> {
  const paths = findRoot(options.cwd);
  const agent = resolveAgent(options);
  const clock = clockOf(paths, options);
  return updateProgress((p) => releasePlanItem(p, id, agent, clock, options.force), {
    ...options,
    now: () => clock.now,
  });
}
