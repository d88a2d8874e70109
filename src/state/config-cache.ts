// config.yaml's resolved values for the hot paths, without the YAML parser: the one config cache,
// .agent/log/config.json, keyed by config.yaml's inode, size and mtime. A config holding a secret
// (a token in the test command) is parsed every time instead: agent-state writes no secret to disk.
import { statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { logCache } from './atomic-write.js';
import type { Config } from '../types.js';
import type { StatePaths } from './paths.js';

const CACHE = 'config.json';

/** Where the cache lives. */
export const configCachePath = (paths: StatePaths): string => logCache(paths.logDir, CACHE).file;

// `inode:size:mtime` of config.yaml, or `missing`: what identifies one version of it.
function configKey(paths: StatePaths): string {
  const st = statSync(paths.config, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'missing';
}

/** The cached config when config.yaml has not changed since (so it validated), else undefined. */
export function readConfigCache(paths: StatePaths, key = configKey(paths)): Config | undefined {
  const cached = logCache(paths.logDir, CACHE).read() as
    { key?: string; config?: Config } | undefined;
  return cached?.key === key && typeof cached.config?.integrations === 'object'
    ? cached.config
    : undefined;
}

/** The resolved config; throws InvalidStateError for a config.yaml that does not validate. */
export async function cachedConfig(paths: StatePaths): Promise<Config> {
  const key = configKey(paths);
  const hit = readConfigCache(paths, key);
  if (hit) return hit;
  const [{ readConfig }, { valueOrThrow }, { redactValue }] = await Promise.all([
    import('./config.js'),
    import('./parsed-file.js'),
    import('../text/redact.js'),
  ]);
  const config = valueOrThrow(readConfig(paths));
  // Each string value on its own: the JSON text would look like `"token…": 10` to the patterns.
  const secret = !isDeepStrictEqual(redactValue(config), config);
  logCache(paths.logDir, CACHE).write(secret ? null : `${JSON.stringify({ key, config })}\n`);
  return config;
}

/** The `log` settings; the defaults when config.yaml is missing or invalid (appends never fail on it). */
export async function cachedLogSettings(paths: StatePaths): Promise<Config['log']> {
  try {
    return (await cachedConfig(paths)).log;
  } catch {
    // Loaded only here: config.ts brings the YAML parser, which `event` must not pay for.
    return (await import('./config.js')).DEFAULT_CONFIG.log;
  }
}
