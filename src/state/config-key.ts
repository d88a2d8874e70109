// What identifies one version of config.yaml without reading it: the caches of its resolved
// values (.agent/log/settings.json, hook-config.json) are keyed by it, so hot paths parse YAML
// only after the file changed.
import { statSync } from 'node:fs';
import type { StatePaths } from './paths.js';

/** `inode:size:mtime` of config.yaml, or `missing`. */
export function configKey(paths: StatePaths): string {
  try {
    const st = statSync(paths.config);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
