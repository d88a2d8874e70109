// What the appender needs from config.yaml, behind one dynamic import that the bundler leaves
// external (scripts/build.mjs): the YAML parser is loaded only when config.yaml changed, never on
// the common path of `event` or of the commands that record a fact.
import { DEFAULT_CONFIG } from '../state/config.js';
import { readConfig } from '../state/store.js';
import type { StatePaths } from '../state/paths.js';
import type { Config } from '../types.js';

/** The `log` settings of config.yaml; the defaults when it is missing or invalid. */
export function logSettingsOf(paths: StatePaths): Config['log'] {
  try {
    return readConfig(paths).value?.log ?? DEFAULT_CONFIG.log;
  } catch {
    return DEFAULT_CONFIG.log;
  }
}
