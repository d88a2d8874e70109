// Codex CLI: hooks in .codex/hooks.json (project; ~/.codex/hooks.json for user), the protocol
// block in AGENTS.md, and optionally the MCP server as a managed block in .codex/config.toml.
// Format: https://developers.openai.com/codex/hooks (see docs/integrations.md).
import { join } from 'node:path';
import type { FileEdit } from './file-edits.js';
import {
  commandHookSpecs,
  commandRuns,
  hasOurHooks,
  mergeHooks,
  removeHooks,
  type HookEventSpec,
  type HookSpec,
} from './hook-groups.js';
import type { HookBinary } from './hook-binary.js';
import { jsonEdit } from './json-edit.js';
import { HASH_MARKERS } from './managed-block.js';
import { MCP_SERVER_NAME } from './mcp-json.js';
import type { IntegrationPlan } from './plan.js';
import { protocolBlockEdit } from './protocol-block.js';
import { textEdit } from './text-edit.js';

export type CodexScope = 'project' | 'user';

/** Codex's edit tools: `apply_patch` (matchers may also say Edit or Write) and Bash. */
export const CODEX_EDIT_MATCHER = 'Bash|apply_patch';

/** What `integrate codex` registers; timeouts in seconds. */
export const CODEX_HOOK_EVENTS: readonly HookEventSpec[] = [
  { event: 'SessionStart', timeout: 20 },
  { event: 'UserPromptSubmit', timeout: 5 },
  { event: 'PreToolUse', matcher: CODEX_EDIT_MATCHER, timeout: 5 },
  { event: 'PostToolUse', timeout: 5 },
  { event: 'PreCompact', timeout: 10 },
  { event: 'PostCompact', timeout: 10 },
  { event: 'Stop', timeout: 10 },
];

export interface CodexPlanOptions {
  scope: CodexScope;
  mcp: boolean;
  binary: HookBinary;
  root: string;
  /** Codex's home (~/.codex, or $CODEX_HOME). */
  codexHome: string;
}

export const isCodexHook = commandRuns('hook', 'codex');

/** The hook specs for a binary. */
export function codexHookSpecs(binary: HookBinary): HookSpec[] {
  return commandHookSpecs(CODEX_HOOK_EVENTS, `${binary.command} hook codex`);
}

/** The `[mcp_servers.agent-state]` table (TOML), as the body of a managed block. */
export function codexMcpBlock(binary: HookBinary): string {
  return `[mcp_servers.${MCP_SERVER_NAME}]\ncommand = ${JSON.stringify(binary.executable)}\nargs = ["mcp"]`;
}

function dirOf(options: CodexPlanOptions): { dir: string; display: string } {
  return options.scope === 'user'
    ? { dir: options.codexHome, display: '~/.codex' }
    : { dir: join(options.root, '.codex'), display: '.codex' };
}

/** The files `integrate codex` edits, and what to tell the user. */
export function codexPlan(options: CodexPlanOptions): IntegrationPlan {
  const { dir, display } = dirOf(options);
  const specs = codexHookSpecs(options.binary);
  const edits: FileEdit[] = [
    jsonEdit({
      path: join(dir, 'hooks.json'),
      display: `${display}/hooks.json`,
      install: (s) => mergeHooks(s, specs, isCodexHook),
      remove: (s) => removeHooks(s, isCodexHook),
      holdsOurs: (s) => hasOurHooks(s, isCodexHook),
    }),
    options.scope === 'user'
      ? protocolBlockEdit(join(options.codexHome, 'AGENTS.md'), '~/.codex/AGENTS.md')
      : protocolBlockEdit(join(options.root, 'AGENTS.md'), 'AGENTS.md'),
  ];
  if (options.mcp) {
    edits.push(
      textEdit({
        path: join(dir, 'config.toml'),
        display: `${display}/config.toml`,
        body: codexMcpBlock(options.binary),
        markers: HASH_MARKERS,
      }),
    );
  }
  const notes = [
    'Codex runs a new or changed hook only after you review and trust it: open /hooks in Codex and trust the agent-state hooks',
  ];
  if (options.scope === 'project')
    notes.push(
      'project hooks (and a project config.toml) load only when Codex trusts this project',
    );
  return { edits, notes };
}

/** The edits that `integrate codex --remove` undoes. */
export function codexRemovalPlan(options: CodexPlanOptions): IntegrationPlan {
  return { edits: codexPlan({ ...options, mcp: true }).edits, notes: [] };
}
