// The adapters of the hosts named in host-names.ts, each loaded only when it is used: naming the
// hosts costs nothing, and a hook call initializes one host. The compiler holds this map to the
// list of names (a new host: its folder, its name there, its line here).
import type { HostAdapter } from './host-adapter.js';
import type { HostName } from './host-names.js';

const ADAPTERS: Record<HostName, () => Promise<HostAdapter>> = {
  claude: async () => (await import('./claude/claude-host.js')).claudeHost,
  codex: async () => (await import('./codex/codex-host.js')).codexHost,
  gemini: async () => (await import('./gemini/gemini-host.js')).geminiHost,
  opencode: async () => (await import('./opencode/opencode-host.js')).opencodeHost,
};

/** The adapter of one host. */
export function loadHost(name: HostName): Promise<HostAdapter> {
  return ADAPTERS[name]();
}
