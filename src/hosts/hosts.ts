// The agent hosts agent-state integrates with: the one list (hook calls, `integrate`, doctor,
// help texts). Each host is a folder whose adapter loads only when it is used, so naming the
// hosts costs nothing, and a hook call initializes one host. A new host: a folder, and one line.
import type { HostAdapter } from './host-adapter.js';

const ADAPTERS = {
  claude: async () => (await import('./claude/claude-host.js')).claudeHost,
  codex: async () => (await import('./codex/codex-host.js')).codexHost,
  gemini: async () => (await import('./gemini/gemini-host.js')).geminiHost,
  opencode: async () => (await import('./opencode/opencode-host.js')).opencodeHost,
} satisfies Record<string, () => Promise<HostAdapter>>;

/** The agent hosts whose hooks `agent-state hook <host>` understands. */
export type HostName = keyof typeof ADAPTERS;

export const HOST_NAMES = Object.keys(ADAPTERS) as readonly HostName[];

/** The adapter of one host. */
export function loadHost(name: HostName): Promise<HostAdapter> {
  return ADAPTERS[name]();
}

/** What `integrate` accepts: the hosts, and the instruction block any agent reads. */
export type IntegrationHost = HostName | 'agents-md';

export const INTEGRATION_HOSTS: readonly IntegrationHost[] = [...HOST_NAMES, 'agents-md'];

/** The instruction files `integrate agents-md --file` may write. */
export const AGENTS_MD_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
