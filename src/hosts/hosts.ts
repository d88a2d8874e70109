// The agent hosts agent-state integrates with: the one list (hook calls, `integrate`, doctor,
// help texts), in a module of its own so that anything can name them without loading the
// integrations (every command pays for what the program imports).

/** The agent hosts whose hooks `agent-state hook <host>` understands. */
export type HostName = 'claude' | 'codex' | 'gemini' | 'opencode';

export const HOST_NAMES: readonly HostName[] = ['claude', 'codex', 'gemini', 'opencode'];

/** What `integrate` accepts: the hosts, and the instruction block any agent reads. */
export type IntegrationHost = HostName | 'agents-md';

export const INTEGRATION_HOSTS: readonly IntegrationHost[] = [...HOST_NAMES, 'agents-md'];

/** The instruction files `integrate agents-md --file` may write. */
export const AGENTS_MD_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
