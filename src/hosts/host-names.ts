// The agent hosts agent-state integrates with: the one list (hook calls, `integrate`, doctor,
// help texts). Each name is a folder, src/hosts/<name>/, whose adapter hosts.ts loads on use.

export const HOST_NAMES = ['claude', 'codex', 'gemini', 'opencode'] as const;

/** The agent hosts whose hooks `agent-state hook <host>` understands. */
export type HostName = (typeof HOST_NAMES)[number];

/** What `integrate` accepts: the hosts, and the instruction block any agent reads. */
export type IntegrationHost = HostName | 'agents-md';

export const INTEGRATION_HOSTS: readonly IntegrationHost[] = [...HOST_NAMES, 'agents-md'];

/** The instruction files `integrate agents-md --file` may write. */
export const AGENTS_MD_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
