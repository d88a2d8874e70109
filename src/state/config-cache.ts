// config.yaml's resolved values for the hot paths (the event appender, the host hooks), without
// the YAML parser: they are kept in .agent/log/config.json, keyed by config.yaml's inode, size
// and mtime, and config.yaml is parsed again only when it changed. The one cache of the config.
// A config holding a secret (a token in the test command) is not copied there: it is parsed
// every time instead, as agent-state writes no secret to disk.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { replaceFile } from './atomic-write.js';
import type { Config } from '../types.js';
import type { StatePaths } from './paths.js';

interface ConfigCache {
  key: string;
  config: Config;
}

/** `inode:size:mtime` of config.yaml, or `missing`: what identifies one version of it. */
export function configKey(paths: StatePaths): string {
  try {
    const st = statSync(paths.config);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** Where the cache lives. */
export function configCachePath(paths: StatePaths): string {
  return join(paths.logDir, 'config.json');
}

/** The resolved config; throws InvalidStateError for a config.yaml that does not validate. */
export function readConfigCache(paths: StatePaths, key = configKey(paths)): Config | undefined {
  try {
    const cached = JSON.parse(readFileSync(configCachePath(paths), 'utf8')) as ConfigCache;
    if (cached.key === key && typeof cached.config?.integrations === 'object') return cached.config;
  } catch {
    /* no cache yet, or a broken one: parse config.yaml */
  }
  return undefined;
}

export async function cachedConfig(paths: StatePaths): Promise<Config> {
  const file = configCachePath(paths);
  const key = configKey(paths);
  const hit = readConfigCache(paths, key);
  if (hit) return hit;
  const [{ readConfig }, { valueOrThrow }] = await Promise.all([
    import('./config.js'),
    import('./parsed-file.js'),
  ]);
  const config = valueOrThrow(readConfig(paths));
  try {
    const json = `${JSON.stringify({ key, config })}\n`;
    const { redactValue } = await import('../text/redact.js');
    // Each string value on its own: the JSON text would look like `"token…": 10` to the patterns.
    if (!isDeepStrictEqual(redactValue(config), config)) rmSync(file, { force: true });
    else {
      mkdirSync(paths.logDir, { recursive: true });
      replaceFile(file, json);
    }
  } catch {
    /* a cache that cannot be written is only slower */
  }
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
