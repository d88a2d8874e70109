// Codex CLI: hooks in .codex/hooks.json (project; ~/.codex/hooks.json for user), the protocol
// block in AGENTS.md, and optionally the MCP server as a managed block in .codex/config.toml.
// Format: https://developers.openai.com/codex/hooks (see docs/integrations.md).
import { join } from 'node:path';
import type { FileEdit } from '../install/file-edits.js';
import {
  commandHookSpecs,
  commandRuns,
  hasOurHooks,
  mergeHooks,
  removeHooks,
  type HookEventSpec,
  type HookSpec,
} from '../install/hook-groups.js';
import type { HookBinary } from '../install/hook-binary.js';
import { jsonEdit } from '../install/json-edit.js';
import { codexHookTrusts, codexTrustBlock, readCodexTrust } from './codex-trust.js';
import { readHostFile } from '../install/file-edits.js';
import { parseJsonObject } from '../install/json-text.js';
import { HASH_MARKERS, removeBlock, upsertBlock } from '../../text/managed-block.js';
import { MCP_SERVER_NAME } from '../install/mcp-json.js';
import type { IntegrationPlan } from '../host-adapter.js';
import { protocolBlockEdit } from '../install/protocol-block.js';
import { textEdit } from '../install/text-edit.js';

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
  /** Also trust the project and our hooks in $CODEX_HOME/config.toml (`--trust`). */
  trust?: boolean;
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

/** The managed block in $CODEX_HOME/config.toml that trusts the project and our hooks. */
function trustEdit(options: CodexPlanOptions, hooksPath: string, specs: HookSpec[]): FileEdit {
  const projectRoot = options.scope === 'project' ? options.root : null;
  const block = (before: string) => {
    // The hooks as they will be once hooks.json is merged: trust keys carry group positions.
    const current = readHostFile(hooksPath, 'hooks.json');
    const merged = mergeHooks(parseJsonObject(current ?? '', hooksPath), specs, isCodexHook);
    const outside = readCodexTrust(removeBlock(before, HASH_MARKERS));
    return codexTrustBlock(outside, codexHookTrusts(merged, hooksPath, isCodexHook), projectRoot);
  };
  const edit = textEdit({
    path: join(options.codexHome, 'config.toml'),
    display: '~/.codex/config.toml',
    body: '',
    markers: HASH_MARKERS,
  });
  return {
    ...edit,
    install: (before) => {
      const body = block(before ?? '');
      if (body === '') return before === null ? null : removeBlock(before, HASH_MARKERS);
      return upsertBlock(before ?? '', body, HASH_MARKERS);
    },
  };
}

/** The one command that makes Codex run agent-state's hooks (printed by integrate and doctor). */
export function codexTrustCommand(scope: CodexScope): string {
  return `agent-state integrate codex${scope === 'user' ? ' --scope user' : ''} --trust`;
}

/** The files `integrate codex` edits, and what to tell the user. */
export function codexPlan(options: CodexPlanOptions): IntegrationPlan {
  const { dir, display } = dirOf(options);
  const specs = codexHookSpecs(options.binary);
  const hooksPath = join(dir, 'hooks.json');
  const edits: FileEdit[] = [
    jsonEdit({
      path: hooksPath,
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
  if (options.trust) edits.push(trustEdit(options, hooksPath, specs));
  const notes = options.trust
    ? [
        options.scope === 'project'
          ? 'trusted this project and the agent-state hooks in ~/.codex/config.toml; a changed hook command needs `--trust` again'
          : 'trusted the agent-state hooks in ~/.codex/config.toml; a changed hook command needs `--trust` again',
      ]
    : [
        `Codex runs a hook only once you trust it, and \`codex exec\` skips an untrusted one without a word: run \`${codexTrustCommand(options.scope)}\` (it writes the trust into ~/.codex/config.toml), or review the hooks in Codex's /hooks`,
        ...(options.scope === 'project'
          ? ['Codex reads .codex/ only in a trusted project (`--trust` trusts this one too)']
          : []),
      ];
  return { edits, notes };
}

/** The edits that `integrate codex --remove` undoes (the trust block included). */
export function codexRemovalPlan(options: CodexPlanOptions): IntegrationPlan {
  const plan = codexPlan({ ...options, mcp: true, trust: true });
  return { edits: plan.edits, notes: [] };
}
