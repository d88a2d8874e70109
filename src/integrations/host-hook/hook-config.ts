// The config as the hooks need it, without the YAML parser on the hot path: the resolved config
// is kept in .agent/log/hook-config.json, keyed by config.yaml's inode, size and mtime, and
// config.yaml is parsed again only when it changed (PostToolUse runs after every tool call).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../../events/replace-file.js';
import { configKey } from '../../state/config-key.js';
import type { StatePaths } from '../../state/paths.js';
import type { Config } from '../../types.js';

interface ConfigCache {
  key: string;
  config: Config;
}

/** The resolved config; throws InvalidStateError for a config.yaml that does not validate. */
export async function readHookConfig(paths: StatePaths): Promise<Config> {
  const file = join(paths.logDir, 'hook-config.json');
  const key = configKey(paths);
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as ConfigCache;
    if (cached.key === key && typeof cached.config?.integrations === 'object') return cached.config;
  } catch {
    /* no cache yet, or a broken one: parse config.yaml */
  }
  const { readConfig } = await import('../../state/store.js');
  const { valueOrThrow } = await import('../../state/parsed-file.js');
  const config = valueOrThrow(readConfig(paths));
  try {
    mkdirSync(paths.logDir, { recursive: true });
    replaceFile(file, `${JSON.stringify({ key, config })}\n`);
  } catch {
    /* a cache that cannot be written is only slower */
  }
  return config;
}
