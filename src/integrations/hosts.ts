// The names `integrate` accepts, in a module of their own so that the CLI can list them in its
// help without loading the integrations (every command pays for what the program imports).

export type IntegrationHost = 'claude' | 'codex' | 'gemini' | 'opencode' | 'agents-md';

export const INTEGRATION_HOSTS: readonly IntegrationHost[] = [
  'claude',
  'codex',
  'gemini',
  'opencode',
  'agents-md',
];

/** The instruction files `integrate agents-md --file` may write. */
export const AGENTS_MD_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
