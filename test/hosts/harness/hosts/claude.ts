// Claude Code against the Anthropic Messages stub: ANTHROPIC_BASE_URL points at it, `-p` runs
// one prompt without a terminal, and IS_SANDBOX=1 lets --dangerously-skip-permissions run as root.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicMessages } from '../anthropic-messages.js';
import type { BenchSpec } from '../bench-spec.js';
import type { HostDriver } from '../run-host.js';

/** Claude Code's config directory inside a host repo's HOME. */
export const claudeConfigDir = (home: string) => join(home, '.claude');

export const claude: HostDriver = {
  host: 'claude',
  adapter: () => anthropicMessages(),
  prepare(repo) {
    const dir = claudeConfigDir(repo.home);
    mkdirSync(dir, { recursive: true });
    // Project MCP servers (.mcp.json) start without the interactive approval prompt.
    writeFileSync(
      join(dir, 'settings.json'),
      `${JSON.stringify({ enableAllProjectMcpServers: true }, null, 2)}\n`,
    );
  },
  env(repo, stub) {
    return {
      CLAUDE_CONFIG_DIR: claudeConfigDir(repo.home),
      ANTHROPIC_BASE_URL: stub.url,
      ANTHROPIC_API_KEY: 'sk-ant-stub-key',
      IS_SANDBOX: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    };
  },
  args(prompt) {
    return ['-p', prompt, '--dangerously-skip-permissions', '--output-format', 'json'];
  },
};

/** bench/hosts.mjs: Bash `true`, which PreToolUse (matcher Bash) and PostToolUse both see. */
export const bench: BenchSpec = {
  driver: claude,
  toolCall: (i) => ({ name: 'Bash', input: { command: 'true', description: `step ${i}` } }),
};
