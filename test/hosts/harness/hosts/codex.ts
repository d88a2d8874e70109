// Codex against the OpenAI Responses stub: a custom [model_providers.stub] with
// wire_api = "responses" in $CODEX_HOME/config.toml, `codex exec` for one prompt without a
// terminal, the sandbox and approvals off (the stub only asks for what the test needs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openaiResponses } from '../openai-responses.js';
import type { BenchSpec } from '../bench-spec.js';
import type { HostDriver } from '../run-host.js';
import { trustCodexHooks } from './codex-app-server.js';

/** Codex's home inside a host repo's HOME. */
export const codexHome = (home: string) => join(home, '.codex');

export interface CodexConfigOptions {
  /** Mark the repository trusted (project hooks and .codex/config.toml load). Default true. */
  trustProject?: boolean;
  /** More TOML appended to config.toml. */
  extra?: string;
  /**
   * Trust the repo's hooks as Codex's /hooks panel would (hashes from `codex app-server`).
   * Default true; false leaves them untrusted, as after a plain `integrate codex`.
   */
  trustHooks?: boolean;
}

/** The $CODEX_HOME/config.toml for a repo and a stub. */
export function codexConfig(
  dir: string,
  stubUrl: string,
  options: CodexConfigOptions = {},
): string {
  const lines = [
    'model = "gpt-5.5"',
    'model_provider = "stub"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.stub]',
    'name = "Model stub"',
    `base_url = "${stubUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "STUB_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
  ];
  if (options.trustProject !== false)
    lines.push('', `[projects.${JSON.stringify(dir)}]`, 'trust_level = "trusted"');
  if (options.extra) lines.push('', options.extra);
  return `${lines.join('\n')}\n`;
}

/** A Codex driver; `options` shape the generated config.toml. */
export function codexDriver(options: CodexConfigOptions = {}): HostDriver {
  return {
    host: 'codex',
    adapter: () => openaiResponses(),
    async prepare(repo, stub) {
      mkdirSync(codexHome(repo.home), { recursive: true });
      writeFileSync(
        join(codexHome(repo.home), 'config.toml'),
        codexConfig(repo.dir, stub.url, options),
      );
      if (options.trustHooks !== false)
        await trustCodexHooks(repo.home, codexHome(repo.home), repo.dir);
    },
    env(repo) {
      return { CODEX_HOME: codexHome(repo.home), STUB_API_KEY: 'sk-stub-key', RUST_LOG: 'warn' };
    },
    args(prompt) {
      return ['exec', '--dangerously-bypass-approvals-and-sandbox', '--json', prompt];
    },
  };
}

export const codex = codexDriver();

/** bench/hosts.mjs: exec_command `true` (PreToolUse sees it as Bash, PostToolUse too). */
export const bench: BenchSpec = {
  driver: codex,
  toolCall: () => ({ name: 'exec_command', input: { cmd: 'true' } }),
};
