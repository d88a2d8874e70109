// Warnings worth reading once (Warning.once): which were shown, in .agent/log/shown-warnings.json
// (local to the worktree). A warning is shown the first time its key is seen and not again, until
// what it says changes (a new key). Losing the file only shows each warning once more.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './atomic-write.js';
import type { Warning } from '../types.js';
import type { StatePaths } from './paths.js';

// Enough for every key a task has live; the oldest are forgotten first.
const MAX_KEYS = 50;

function fileOf(paths: StatePaths): string {
  return join(paths.logDir, 'shown-warnings.json');
}

function readKeys(paths: StatePaths): string[] {
  try {
    const keys = (JSON.parse(readFileSync(fileOf(paths), 'utf8')) as { keys?: unknown }).keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The warnings to show now: every warning without a `once` key, and those whose key was not shown
 * before (recorded as shown). Call it only for warnings that will really be shown. Never throws.
 */
export function firstShowings(paths: StatePaths, warnings: readonly Warning[]): Warning[] {
  if (!warnings.some((w) => w.once !== undefined)) return [...warnings];
  const keys = readKeys(paths);
  const shown = new Set(keys);
  const fresh: string[] = [];
  const out = warnings.filter((w) => {
    if (w.once === undefined) return true;
    if (shown.has(w.once)) return false;
    shown.add(w.once);
    fresh.push(w.once);
    return true;
  });
  if (fresh.length > 0) {
    try {
      mkdirSync(paths.logDir, { recursive: true });
      replaceFile(fileOf(paths), JSON.stringify({ keys: [...keys, ...fresh].slice(-MAX_KEYS) }));
    } catch {
      // Not remembered: shown again next time, which is only noise.
    }
  }
  return out;
}
