// Claude Code: hooks in .claude/settings.json (project), .claude/settings.local.json (local) or
// ~/.claude/settings.json (user); optionally a statusLine and the MCP server in .mcp.json.
// Formats: https://code.claude.com/docs/en/hooks, /statusline, /mcp (see docs/integrations.md).
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
import { isJsonObject, type JsonObject } from '../install/json-text.js';
import { mcpServersEdit } from '../install/mcp-json.js';
import type { IntegrationPlan } from '../host-adapter.js';

export type ClaudeScope = 'project' | 'local' | 'user';

export const CLAUDE_SCOPES: readonly ClaudeScope[] = ['project', 'local', 'user'];

/** The tools whose input names the files they change (PreToolUse checks only these). */
export const CLAUDE_EDIT_MATCHER = 'Edit|Write|MultiEdit|NotebookEdit|Bash';

/**
 * What `integrate claude` registers, event by event, with a timeout (seconds) well above what
 * the hook needs, so a stuck file system cannot hang the session for the default 10 minutes.
 */
export const CLAUDE_HOOK_EVENTS: readonly HookEventSpec[] = [
  { event: 'SessionStart', timeout: 20 },
  { event: 'UserPromptSubmit', timeout: 5 },
  { event: 'PreToolUse', matcher: CLAUDE_EDIT_MATCHER, timeout: 5 },
  { event: 'PostToolUse', timeout: 5 },
  { event: 'PostToolUseFailure', timeout: 5 },
  { event: 'PreCompact', timeout: 10 },
  { event: 'PostCompact', timeout: 10 },
  { event: 'Stop', timeout: 10 },
];

export interface ClaudePlanOptions {
  scope: ClaudeScope;
  statusline: boolean;
  mcp: boolean;
  binary: HookBinary;
  /** The repository root (project and local scopes). */
  root: string;
  /** Claude Code's user directory (~/.claude, or $CLAUDE_CONFIG_DIR). */
  userDir: string;
}

export const isClaudeHook = commandRuns('hook', 'claude');
const isOurStatusLine = commandRuns('statusline');

/** The hook specs for a binary. */
export function claudeHookSpecs(binary: HookBinary): HookSpec[] {
  return commandHookSpecs(CLAUDE_HOOK_EVENTS, `${binary.command} hook claude`);
}

/** The settings file of a scope. */
export function claudeSettingsPath(
  options: Pick<ClaudePlanOptions, 'scope' | 'root' | 'userDir'>,
): {
  path: string;
  display: string;
} {
  if (options.scope === 'user')
    return { path: join(options.userDir, 'settings.json'), display: '~/.claude/settings.json' };
  const name = options.scope === 'local' ? 'settings.local.json' : 'settings.json';
  return { path: join(options.root, '.claude', name), display: `.claude/${name}` };
}

function withStatusLine(settings: JsonObject, binary: HookBinary, notes: string[]): JsonObject {
  const current = settings.statusLine;
  if (current !== undefined && !isOurStatusLine(current)) {
    notes.push('a statusLine is already configured in this file; it was left as it is');
    return settings;
  }
  return {
    ...settings,
    statusLine: { type: 'command', command: `${binary.command} statusline`, padding: 0 },
  };
}

function withoutStatusLine(settings: JsonObject): JsonObject {
  if (!isOurStatusLine(settings.statusLine)) return settings;
  const next = { ...settings };
  delete next.statusLine;
  return next;
}

/** The files `integrate claude` edits, and what to tell the user. */
export function claudePlan(options: ClaudePlanOptions): IntegrationPlan {
  const notes: string[] = [];
  const specs = claudeHookSpecs(options.binary);
  const target = claudeSettingsPath(options);
  const edits: FileEdit[] = [
    jsonEdit({
      ...target,
      install: (s) => {
        const merged = mergeHooks(s, specs, isClaudeHook);
        return options.statusline
          ? withStatusLine(merged, options.binary, notes)
          : withoutStatusLine(merged);
      },
      remove: (s) => withoutStatusLine(removeHooks(s, isClaudeHook)),
      holdsOurs: (s) => hasOurHooks(s, isClaudeHook) || isOurStatusLine(s.statusLine),
    }),
  ];
  if (options.mcp && options.scope === 'project') {
    edits.push(
      mcpServersEdit(join(options.root, '.mcp.json'), '.mcp.json', {
        command: options.binary.executable,
        args: ['mcp'],
      }),
    );
    notes.push(
      'Claude Code asks once before it starts a project MCP server from .mcp.json: approve agent-state',
    );
  } else if (options.mcp) {
    notes.push(
      `register the MCP server for this scope with: claude mcp add --scope ${options.scope} agent-state -- ${options.binary.executable} mcp`,
    );
  }
  return { edits, notes };
}

/** The edits that `integrate claude --remove` undoes (settings, and .mcp.json for project). */
export function claudeRemovalPlan(options: ClaudePlanOptions): IntegrationPlan {
  const plan = claudePlan({ ...options, mcp: options.scope === 'project', statusline: true });
  return { edits: plan.edits, notes: [] };
}

/** True when a parsed settings object has our hooks (for `doctor`). */
export function claudeHooksInstalled(settings: unknown): boolean {
  return isJsonObject(settings) && hasOurHooks(settings, isClaudeHook);
}
