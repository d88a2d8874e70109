// `integrate`: wires agent-state into an agent host (or teaches any agent through a Markdown
// block). Idempotent: a second run changes no byte; `remove` takes out exactly what was added and
// restores a file's original bytes when nothing else changed it.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { locateRoot } from '../state/find-root.js';
import type { BaseOptions, Warning } from '../types.js';
import {
  CLAUDE_SCOPES,
  claudePlan,
  claudeRemovalPlan,
  type ClaudeScope,
} from './claude/claude-host.js';
import { codexPlan, codexRemovalPlan, type CodexScope } from './codex/codex-host.js';
import { applyEdits, type IntegrationChange } from './install/file-edits.js';
import { geminiPlan, geminiRemovalPlan, type GeminiScope } from './gemini/gemini-host.js';
import { geminiUserDir } from './gemini/gemini-trust.js';
import { resolveHookBinary, type HookBinary } from './install/hook-binary.js';
import { opencodePlan, opencodeRemovalPlan, type OpencodeScope } from './opencode/opencode-host.js';
import { AGENTS_MD_FILES, INTEGRATION_HOSTS, type IntegrationHost } from './hosts.js';
import type { IntegrationPlan } from './host-adapter.js';
import { protocolBlockEdit } from './install/protocol-block.js';

export { AGENTS_MD_FILES, INTEGRATION_HOSTS, type IntegrationHost } from './hosts.js';

export type IntegrationScope = 'project' | 'local' | 'user';

export interface IntegrateOptions extends BaseOptions {
  host: IntegrationHost;
  /** Where to install: project (default), local (Claude Code only) or user. */
  scope?: IntegrationScope;
  /** Claude Code: also install the status line. */
  statusline?: boolean;
  /** Claude Code and Codex: also register the MCP server. */
  mcp?: boolean;
  /**
   * Codex: also trust the project and our hooks in $CODEX_HOME/config.toml. Gemini CLI: also
   * trust the folder in ~/.gemini/trustedFolders.json (both run no hooks otherwise).
   */
  trust?: boolean;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
  /** Take our part out instead of putting it in. */
  remove?: boolean;
  /** The command hooks run instead of the detected binary (e.g. `agent-state`). */
  bin?: string;
  /** agents-md: which instructions file (default AGENTS.md). */
  file?: string;
}

export interface IntegrateResult {
  host: IntegrationHost;
  scope: IntegrationScope;
  remove: boolean;
  dryRun: boolean;
  /** The repository root the project-scope files live under. */
  root: string;
  /** How hooks start agent-state (null for agents-md). */
  binary: HookBinary | null;
  changes: IntegrationChange[];
  notes: string[];
  warnings: Warning[];
}

const SCOPES: Record<IntegrationHost, readonly IntegrationScope[]> = {
  claude: CLAUDE_SCOPES,
  codex: ['project', 'user'],
  gemini: ['project', 'user'],
  opencode: ['project', 'user'],
  'agents-md': ['project'],
};

// The variable each host sets to the project directory, for a project-local install.
const PROJECT_DIR_VAR: Partial<Record<IntegrationHost, string>> = {
  claude: '$CLAUDE_PROJECT_DIR',
  codex: '$(git rev-parse --show-toplevel)',
  gemini: '$GEMINI_PROJECT_DIR',
  opencode: '.',
};

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

function checkOptions(options: IntegrateOptions): IntegrationScope {
  const { host } = options;
  if (!INTEGRATION_HOSTS.includes(host)) {
    throw new UsageError(`unknown host "${String(host)}"`, {
      hint: `use one of: ${INTEGRATION_HOSTS.join(', ')}`,
    });
  }
  const scope = options.scope ?? 'project';
  if (!SCOPES[host].includes(scope)) {
    throw new UsageError(`--scope ${scope} does not apply to ${host}`, {
      hint: `use --scope ${SCOPES[host].join(' or ')}`,
    });
  }
  if (options.statusline && host !== 'claude')
    throw new UsageError('--statusline applies to claude only', { hint: 'drop --statusline' });
  if (options.mcp && host !== 'claude' && host !== 'codex')
    throw new UsageError('--mcp applies to claude and codex only', { hint: 'drop --mcp' });
  if (options.trust && host !== 'codex' && host !== 'gemini')
    throw new UsageError('--trust applies to codex and gemini only', { hint: 'drop --trust' });
  if (options.file !== undefined && host !== 'agents-md')
    throw new UsageError('--file applies to agents-md only', { hint: 'drop --file' });
  if (
    options.file !== undefined &&
    !(AGENTS_MD_FILES as readonly string[]).includes(options.file)
  ) {
    throw new UsageError(`--file ${options.file} is not an instructions file agents read`, {
      hint: `use --file ${AGENTS_MD_FILES.join(', ')}`,
    });
  }
  return scope;
}

function planFor(
  options: IntegrateOptions,
  scope: IntegrationScope,
  root: string,
  binary: HookBinary,
): IntegrationPlan {
  const env = options.env ?? process.env;
  const remove = options.remove === true;
  switch (options.host) {
    case 'claude': {
      const o = {
        scope: scope as ClaudeScope,
        statusline: options.statusline === true,
        mcp: options.mcp === true,
        binary,
        root,
        userDir: env.CLAUDE_CONFIG_DIR || join(home(env), '.claude'),
      };
      return remove ? claudeRemovalPlan(o) : claudePlan(o);
    }
    case 'codex': {
      const o = {
        scope: scope as CodexScope,
        mcp: options.mcp === true,
        trust: options.trust === true,
        binary,
        root,
        codexHome: env.CODEX_HOME || join(home(env), '.codex'),
      };
      return remove ? codexRemovalPlan(o) : codexPlan(o);
    }
    case 'gemini': {
      const o = {
        scope: scope as GeminiScope,
        binary,
        root,
        geminiHome: geminiUserDir(env),
        trust: options.trust === true,
        env,
      };
      return remove ? geminiRemovalPlan(o) : geminiPlan(o);
    }
    case 'opencode': {
      const configHome = env.XDG_CONFIG_HOME || join(home(env), '.config');
      const o = {
        scope: scope as OpencodeScope,
        binary,
        root,
        configDir: join(configHome, 'opencode'),
      };
      return remove ? opencodeRemovalPlan(o) : opencodePlan(o);
    }
    case 'agents-md': {
      const file = options.file ?? 'AGENTS.md';
      return { edits: [protocolBlockEdit(join(root, file), file)], notes: [] };
    }
  }
}

/** Installs (or, with `remove`, uninstalls) the integration for one host; returns what changed. */
export function integrate(options: IntegrateOptions): IntegrateResult {
  const scope = checkOptions(options);
  const env = options.env ?? process.env;
  const info = locateRoot(options.cwd);
  const binary = resolveHookBinary({
    given: options.bin,
    root: info.root,
    projectDirVar: PROJECT_DIR_VAR[options.host],
    env,
  });
  const plan = planFor(options, scope, info.root, binary);
  const changes = applyEdits(plan.edits, options.remove ? 'remove' : 'install', {
    dryRun: options.dryRun === true,
    env,
    now: (options.now ?? (() => new Date()))(),
  });
  const warnings: Warning[] = [];
  if (!info.initialized && !options.remove && options.host !== 'agents-md') {
    warnings.push({
      file: '.agent/',
      message: 'no .agent/ here yet: the hooks stay silent until you run `agent-state init`',
    });
  }
  return {
    host: options.host,
    scope,
    remove: options.remove === true,
    dryRun: options.dryRun === true,
    root: info.root,
    binary: options.host === 'agents-md' ? null : binary,
    changes,
    notes: plan.notes,
    warnings,
  };
}
