// What the host hooks remember between calls, in .agent/log/hooks.json (local, git-ignored): the
// progress a Stop hook already blocked for. (A compaction in flight is part of the recovery
// record: src/recovery/compaction.ts.)
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { StatePaths } from '../state/paths.js';

export interface HookState {
  /** The progress (digest or revision key) the Stop hook last blocked for: it blocks once per progress. */
  stop_blocked_for: string | null;
}

const EMPTY: HookState = { stop_blocked_for: null };

/** Where the hook state lives. */
export function hookStatePath(paths: StatePaths): string {
  return join(paths.logDir, 'hooks.json');
}

/** Reads the hook state; a missing or unreadable file is the empty state (never fatal). */
export function readHookState(paths: StatePaths): HookState {
  try {
    const raw = JSON.parse(readFileSync(hookStatePath(paths), 'utf8')) as Partial<HookState>;
    return {
      stop_blocked_for: typeof raw.stop_blocked_for === 'string' ? raw.stop_blocked_for : null,
    };
  } catch {
    return { ...EMPTY };
  }
}

/** Replaces the hook state atomically. */
export function writeHookState(paths: StatePaths, state: HookState): void {
  mkdirSync(paths.logDir, { recursive: true });
  writeFileAtomic(hookStatePath(paths), `${JSON.stringify(state)}\n`);
}
