// Warnings shown once (Warning.once) until their key changes: the keys shown, in
// .agent/log/shown-warnings.json; losing the file only shows each warning once more.
import { logCache } from './atomic-write.js';
import type { Warning } from '../types.js';
import type { StatePaths } from './paths.js';

// Enough for every key a task has live; the oldest are forgotten first.
const MAX_KEYS = 50;

/** The warnings to show (those without `once`, and `once` keys not shown before). Never throws. */
export function firstShowings(paths: StatePaths, warnings: readonly Warning[]): Warning[] {
  if (!warnings.some((w) => w.once !== undefined)) return [...warnings];
  const cache = logCache(paths.logDir, 'shown-warnings.json');
  const stored = (cache.read() as { keys?: unknown } | null | undefined)?.keys;
  const keys = Array.isArray(stored)
    ? stored.filter((k): k is string => typeof k === 'string')
    : [];
  const shown = new Set(keys);
  const fresh: string[] = [];
  const out = warnings.filter((w) => {
    if (w.once === undefined) return true;
    if (shown.has(w.once)) return false;
    shown.add(w.once);
    fresh.push(w.once);
    return true;
  });
  // Not remembered: shown again next time, which is only noise.
  if (fresh.length > 0) cache.write(JSON.stringify({ keys: [...keys, ...fresh].slice(-MAX_KEYS) }));
  return out;
}
