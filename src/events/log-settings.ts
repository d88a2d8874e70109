// The log settings (rotation size, generations kept) as the appender needs them. Reading
// config.yaml means loading the YAML parser (~40 ms), too slow for a hook that runs after every
// tool call; so the resolved values are kept in .agent/log/settings.json, keyed by the config
// file's size, mtime and inode, and config.yaml is parsed again only when it changes.
import { readFileSync } from 'node:fs';
import { configKey } from '../state/config-key.js';
import type { StatePaths } from '../state/paths.js';
import type { Config } from '../types.js';
import type { EventLogPaths } from './log-paths.js';
import { replaceFile } from './replace-file.js';

export type LogSettings = Config['log'];

interface SettingsCache {
  key: string;
  log: LogSettings;
}

function readCache(file: string): SettingsCache | null {
  try {
    const cache = JSON.parse(readFileSync(file, 'utf8')) as SettingsCache;
    return typeof cache.key === 'string' && typeof cache.log?.rotate_bytes === 'number'
      ? cache
      : null;
  } catch {
    return null;
  }
}

/** The `log` settings of config.yaml (defaults when it is missing or invalid: appends never fail on it). */
export async function readLogSettings(paths: StatePaths, log: EventLogPaths): Promise<LogSettings> {
  const key = configKey(paths);
  const cached = readCache(log.settings);
  if (cached?.key === key) return cached.log;
  // The specifier resolves from dist/events/ (tsc) and dist/bundle/ (bundles) alike.
  const { logSettingsOf } = await import('./config-for-log.js');
  const settings = logSettingsOf(paths);
  try {
    replaceFile(log.settings, `${JSON.stringify({ key, log: settings })}\n`);
  } catch {
    /* a cache that cannot be written is only slower */
  }
  return settings;
}
