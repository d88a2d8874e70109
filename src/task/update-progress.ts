// The rules of every progress write (own keys to the agent's file, claims, next-action history,
// redaction, the 0.1.0 settle), composed over the store's compare-and-swap.
import { isDeepStrictEqual } from 'node:util';
import { ConflictError } from '../errors.js';
import { hasLinkedWorktrees } from '../git/worktrees.js';
import { resolveAgent } from '../state/agent-name.js';
import { findRoot } from '../state/find-root.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { agentProgressPath, type StatePaths } from '../state/paths.js';
import {
  readConfig,
  swapProgress,
  withStateLock,
  type LockWait,
  type ProgressFile,
} from '../state/store.js';
import { redactSecrets } from '../text/redact.js';
import type { BaseOptions, Progress } from '../types.js';
import { applyClaimRules, changesStatus } from './claims.js';
import { emptyOwn, overlayProgress, splitProgress } from './own-state.js';
import { dropShownReminders } from '../state/reminders.js';
import { dropLegacyCounters, hasLegacyCounters, newRecord } from '../recovery/record.js';
import { readStoredRecovery, writeRecovery } from '../recovery/record-store.js';

export interface UpdateOptions extends BaseOptions, LockWait {
  /**
   * Fail with ConflictError unless the stored revision (of the shared progress.yaml) is exactly
   * this (optimistic concurrency).
   */
  expectRevision?: number;
  /** Change the status of an item another agent holds a live claim on (`--force`). */
  force?: boolean;
}

export interface UpdateResult<T> {
  /** The progress as stored after the update. */
  progress: Progress;
  /** False when the mutator changed nothing (then nothing was written). */
  changed: boolean;
  /** What the mutator returned. */
  result: T;
}

// Redacts every string of the arrays and plain objects in `value`, in place.
function redactInPlace(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v === 'string') {
      const text = redactSecrets(v).text;
      if (text !== v) record[key] = text;
    } else redactInPlace(v);
  }
}

// The first text of an agent's own file: the schema line, what the file is, whose it is.
const newOwnText = (agent: string) =>
  `# yaml-language-server: $schema=../../../../node_modules/agent-state/schemas/progress.schema.json
# The own state of agent ${agent}: its next action, stage, current step, working memory,
# reminders, stamp and fingerprint. Plan, markers and durable memory are shared, in
# ../../progress.yaml (docs/multi-agent.md).
version: 1
revision: 0
agent: ${agent}
`;

// Comments and key order kept; nothing written for no change; a hand edit meanwhile: replayed.
/** Applies `mutator` to progress.yaml atomically, under the lock, bumping `revision`. */
export async function updateProgress<T>(
  mutator: (progress: Progress) => T | Promise<T>,
  options: UpdateOptions = {},
): Promise<UpdateResult<T>> {
  const paths = findRoot(options.cwd);
  return withStateLock(paths, () => updateProgressLocked(paths, mutator, options), options);
}

/** updateProgress for a caller that already holds the state lock (to write more files in the same step). */
export async function updateProgressLocked<T>(
  paths: StatePaths,
  mutator: (progress: Progress) => T | Promise<T>,
  options: Pick<UpdateOptions, 'expectRevision' | 'now' | 'agent' | 'env' | 'force'> = {},
): Promise<UpdateResult<T>> {
  const agent = resolveAgent(options);
  const clock = options.now ?? (() => new Date());
  // A named agent's own file is written first, then the shared one.
  const files: ProgressFile[] = [{ path: paths.progress, agent: null }];
  if (agent !== null)
    files.unshift({ path: agentProgressPath(paths, agent), agent, template: newOwnText(agent) });
  let outcome: { progress: Progress; changed: boolean; written?: () => void } | undefined;
  const { result } = await swapProgress(paths, files, async (read) => {
    const shared = read[read.length - 1]!;
    const own = agent === null ? null : (read[0] ?? emptyOwn(agent));
    if (options.expectRevision !== undefined && shared.revision !== options.expectRevision)
      throw new ConflictError(
        `progress.yaml is at revision ${shared.revision}, not ${options.expectRevision}: it changed since it was read`,
        { hint: 'read the state again and reapply the change' },
      );
    const current = own === null ? shared : overlayProgress(shared, own);
    const draft = structuredClone(current);
    const result = await mutator(draft);
    const now = clock();
    // Done here, once, so that every writer (next, checkpoint, library callers) keeps them.
    recordNextAction(current, draft, now);
    // progress.yaml is committed: no secret goes into it, whichever writer brought it; nor into
    // what the writer reports (`memory add` prints the note it added).
    redactInPlace(draft);
    redactInPlace(result);
    // Claims in other worktrees matter only when there are other worktrees (read without git).
    const foreign =
      changesStatus(current, draft) && hasLinkedWorktrees(paths.root)
        ? (await import('./agents-overview.js')).foreignClaims(paths, agent, now, options.env)
        : undefined;
    if (changesStatus(current, draft, true) || (foreign && foreign.size > 0)) {
      const expireMinutes = valueOrThrow(readConfig(paths)).agents.claim_expire_minutes;
      applyClaimRules(current, draft, agent, { now, expireMinutes }, options.force, foreign);
    }
    if (isDeepStrictEqual(draft, current)) {
      outcome = { progress: current, changed: false };
      return { next: files.map(() => null), result };
    }
    // The counters of 0.1.0 move to the local record; reminders a boot showed leave the file.
    const settled = settleVolatile(paths, draft, agent);
    if (own === null) {
      draft.revision = shared.revision + 1;
      outcome = { progress: draft, changed: true, ...settled };
      return { next: [draft], result };
    }
    // Every write of a named agent renews its last_seen, which the other agents' boots show.
    const split = splitProgress(draft, shared, own, now.toISOString());
    const sharedChanged = !isDeepStrictEqual(split.shared, shared);
    if (sharedChanged) split.shared.revision = shared.revision + 1;
    split.own.revision = own.revision + 1;
    outcome = { progress: overlayProgress(split.shared, split.own), changed: true, ...settled };
    return { next: [split.own, sharedChanged ? split.shared : null], result };
  });
  outcome!.written?.();
  return { progress: outcome!.progress, changed: outcome!.changed, result };
}

// The short history of next_action lets a restarted agent see it is going in circles. How many
// next actions the stamp keeps; the restart-loop warning shows the last three.
const NEXT_ACTION_HISTORY = 5;

/** Appends `after.next_action` to `after.stamp.recent_next_actions` when it differs from `before`'s. */
export function recordNextAction(before: Progress, after: Progress, now: Date): void {
  const text = after.next_action ?? '';
  if (text.trim() === '' || text === (before.next_action ?? '')) return;
  const stamp = (after.stamp ??= {});
  const history = [...(stamp.recent_next_actions ?? []), { text, at: now.toISOString() }];
  stamp.recent_next_actions = history.slice(-NEXT_ACTION_HISTORY);
}

// For the local recovery record, under the lock: a 0.1.0 stamp's boot counters move into it, and
// reminders a boot showed leave `draft`. Call `written()` once the write succeeded.
function settleVolatile(
  paths: StatePaths,
  draft: Progress,
  agent: string | null,
): { written(): void } {
  const legacy = hasLegacyCounters(draft.stamp);
  const stored = readStoredRecovery(paths, agent);
  const shown = stored?.reminders_shown ?? [];
  if (shown.length > 0) dropShownReminders(draft, shown);
  if (legacy) {
    // The record first: if the write below fails, the counters are still somewhere.
    if (stored === null) writeRecovery(paths, newRecord(draft.stamp), agent);
    dropLegacyCounters(draft.stamp!);
  }
  return {
    written() {
      if (shown.length === 0 || stored === null) return;
      // The file holds none of the shown reminders now: their keys are done with.
      writeRecovery(paths, { ...stored, reminders_shown: [] }, agent);
    },
  };
}
