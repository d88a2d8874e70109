// config.yaml: parse, validate, and fill in defaults. A missing or empty file means all defaults.
import type { Config } from '../types.js';
import type { ParsedFile } from './parsed-file.js';
import { existsSync } from 'node:fs';
import { displayPath, type StatePaths } from './paths.js';
import { readStateText } from './read-text.js';
import { parseYamlState, type YamlStateSpec } from './yaml-state.js';

/** Every default, as documented in docs/protocol.md and schemas/config.schema.json. */
export const DEFAULT_CONFIG: Config = {
  version: 1,
  test: null,
  test_timeout: 600,
  key_files: [],
  evidence: { keep: 10, max_bytes: 8192 },
  agents: { claim_expire_minutes: 120 },
  fingerprint: { max_hash_bytes: 16 * 1024 * 1024 },
  budget: { total: 12000, goals: 2000, progress: 3000, evidence: 2000, multiplier: 1 },
  boot: { level: 'auto', stall_threshold: 3 },
  integrations: {
    forbidden: 'enforce',
    pre_tool_use: 'warn',
    stop_checkpoint: 'off',
    pre_compact: 'allow',
    max_context_chars: 9000,
  },
  log: { rotate_bytes: 10 * 1024 * 1024, keep: 2 },
  signals: {
    no_new_results: 2,
    consecutive_failures: 3,
    tool_calls_left: 2,
    tokens_left_percent: 10,
    checkpoint_tool_calls: 25,
    checkpoint_minutes: 30,
  },
  hooks: { stale_markers: 'warn' },
};

export const CONFIG_SPEC: YamlStateSpec = {
  schema: 'config',
  what: 'settings (test, key_files, evidence, agents, budget, boot, integrations, log, signals)',
  restoreHint: 'see docs/protocol.md for the keys, or delete the file to use the defaults',
  allowEmpty: true,
};

// The keys that hold a group of settings: a file may set some of a group, the rest are defaults.
const GROUPS = [
  'evidence',
  'agents',
  'fingerprint',
  'budget',
  'boot',
  'integrations',
  'log',
  'signals',
  'hooks',
] as const;
type Group = (typeof GROUPS)[number];

/** A config as written on disk: every key optional. */
export type PartialConfig = Partial<Omit<Config, Group>> & { [K in Group]?: Partial<Config[K]> };

/** Fills defaults into a (validated) partial config. */
export function resolveConfig(partial: PartialConfig | null | undefined): Config {
  const raw = partial ?? {};
  const groups = GROUPS.map((key) => [key, { ...DEFAULT_CONFIG[key], ...raw[key] }]);
  return { ...DEFAULT_CONFIG, ...raw, version: 1, ...Object.fromEntries(groups) } as Config;
}

/** Parses and validates config.yaml text. Never throws for bad content. */
export function parseConfig(text: string, display: string): ParsedFile<Config> {
  const { data, located, problems } = parseYamlState(text, display, CONFIG_SPEC);
  const value = problems.length ? undefined : resolveConfig(data as PartialConfig);
  return { value, located, problems, warnings: [] };
}

/** Reads config.yaml; a missing file means every default. */
export function readConfig(paths: StatePaths): ParsedFile<Config> {
  if (!existsSync(paths.config)) return { value: resolveConfig(null), problems: [], warnings: [] };
  const display = displayPath(paths, paths.config);
  const restoreHint = `restore it from git (\`git checkout -- ${display}\`) or fix it by hand; see docs/protocol.md`;
  return parseConfig(
    readStateText(paths.config, { display, allowEmpty: true, restoreHint }),
    display,
  );
}
