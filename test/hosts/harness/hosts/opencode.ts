// OpenCode against the chat completions stub: a provider `stub` with `npm:
// "@ai-sdk/openai-compatible"` (bundled in the binary) and `options.baseURL` in the user config,
// `opencode run` for one prompt without a terminal, every permission allowed. OpenCode takes the
// session directory from $PWD.
//
// At start-up OpenCode installs `@opencode-ai/plugin` with npm into every config folder that has
// plugins (the repo's .opencode/ and ~/.config/opencode/) unless it is there already, and waits
// for it before it loads them. The tier installs it once into the host's cache folder and links it
// into each repo and HOME, as it is after OpenCode's first run there, so no run needs the network.
import type { BenchSpec } from '../bench-spec.js';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { openaiChat } from '../openai-chat.js';
import { installedHost, type HostDriver } from '../run-host.js';

/** A model id OpenCode offers apply_patch to (not edit/write): any `gpt-*` but gpt-4 and codex. */
export const OPENCODE_GPT_MODEL = 'gpt-5-stub';

/** A model id OpenCode offers edit and write to. */
export const OPENCODE_OTHER_MODEL = 'stub-coder';

/** The context window the stub's models declare (a reply's usage near it makes OpenCode compact). */
export const OPENCODE_CONTEXT = 200_000;

/** What `.opencode/.gitignore` holds after OpenCode installed its plugin package there. */
const DEPS_GITIGNORE = 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n';

// `@opencode-ai/plugin` at the host's version, installed once next to the host.
function pluginDeps(): string {
  const host = installedHost('opencode');
  const dir = join(host.dir, 'plugin-deps');
  if (existsSync(join(dir, 'package-lock.json'))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), '{ "private": true }\n');
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      partial,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--save-exact',
      '--loglevel=error',
      `@opencode-ai/plugin@${host.version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
  );
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another worker won the race
  }
  return dir;
}

// Makes a config folder look as OpenCode leaves it after installing its plugin package.
function linkPluginDeps(configDir: string, deps: string): void {
  mkdirSync(configDir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json'])
    copyFileSync(join(deps, file), join(configDir, file));
  if (!existsSync(join(configDir, 'node_modules')))
    symlinkSync(join(deps, 'node_modules'), join(configDir, 'node_modules'), 'dir');
  writeFileSync(join(configDir, '.gitignore'), DEPS_GITIGNORE);
}

/** The user config: the stub provider with both kinds of model, everything allowed. */
export function opencodeConfig(stubUrl: string, model: string): Record<string, unknown> {
  const limit = { context: OPENCODE_CONTEXT, output: 8000 };
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      stub: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Model stub',
        options: { baseURL: `${stubUrl}/v1`, apiKey: 'stub-key' },
        models: {
          [OPENCODE_GPT_MODEL]: { name: 'GPT stub', limit },
          [OPENCODE_OTHER_MODEL]: { name: 'Coder stub', limit },
        },
      },
    },
    model: `stub/${model}`,
    small_model: `stub/${model}`,
    autoupdate: false,
    share: 'disabled',
    permission: 'allow',
  };
}

/** An OpenCode driver; `model` chooses which tools OpenCode offers. */
export function opencodeDriver(options: { model?: string } = {}): HostDriver {
  const model = options.model ?? OPENCODE_GPT_MODEL;
  return {
    host: 'opencode',
    adapter: () => openaiChat(),
    prepare(repo, stub) {
      const deps = pluginDeps();
      const userConfig = join(repo.home, '.config', 'opencode');
      linkPluginDeps(userConfig, deps);
      linkPluginDeps(join(repo.dir, '.opencode'), deps);
      writeFileSync(
        join(userConfig, 'opencode.json'),
        `${JSON.stringify(opencodeConfig(stub.url, model), null, 2)}\n`,
      );
    },
    env(repo) {
      return {
        PWD: repo.dir,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        // Should OpenCode still ask npm for something, it gets the cache or nothing.
        npm_config_offline: 'true',
      };
    },
    args(prompt) {
      return ['run', prompt, '-m', `stub/${model}`];
    },
  };
}

export const opencode = opencodeDriver();

/** bench/hosts.mjs: bash `true`, which tool.execute.before and tool.execute.after both see. */
export const bench: BenchSpec = {
  driver: opencode,
  toolCall: (i) => ({ name: 'bash', input: { command: 'true', description: `step ${i}` } }),
};
