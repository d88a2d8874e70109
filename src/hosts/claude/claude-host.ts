// Claude Code: hooks in .claude/settings.json (project), .claude/settings.local.json (local) or
// ~/.claude/settings.json (user); optionally a statusLine and the MCP server in .mcp.json.
// Formats: https://code.claude.com/docs/en/hooks, /statusline, /mcp (see docs/integrations.md).
import { join } from 'node:path';
import { scopeFile, type HostAdapter } from '../host-adapter.js';
import type { HostHookEvent, HostHookOutcome } from '../host-hook-event.js';
import { parseHookCall } from '../host-hook-payload.js';
import { jsonEdit, type FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { commandRuns, hooksFileEdit } from '../install/hook-groups.js';
import type { HookBinary } from '../install/hook-binary.js';
import { isJsonObject, type JsonObject } from '../install/json-text.js';

/** The server name we register in an MCP config (only that key is ours). */
export const MCP_SERVER_NAME = 'agent-state';

const isOurStatusLine = commandRuns('statusline');

/**
 * Claude Code's answer: hookSpecificOutput.additionalContext; PreToolUse denies with
 * permissionDecision; Stop and PreCompact block with a top-level decision.
 */
export function claudeOutput(event: HostHookEvent, outcome: HostHookOutcome): JsonObject {
  if (outcome.deny && event.kind === 'pre-tool')
    return {
      hookSpecificOutput: {
        hookEventName: event.hostEvent,
        permissionDecision: 'deny',
        permissionDecisionReason: outcome.deny,
      },
    };
  const blocks = event.kind === 'stop' || event.kind === 'pre-compact';
  if (outcome.block && blocks) return { decision: 'block', reason: outcome.block };
  const out: JsonObject = {};
  if (outcome.context && !blocks)
    out.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: outcome.context };
  return out;
}

// The statusLine entry in the same settings file: ours is replaced, someone else's kept.
function statusLineEdit(binary: HookBinary, wanted: boolean, notes: string[]) {
  const without = (s: JsonObject): JsonObject => {
    if (!isOurStatusLine(s.statusLine)) return s;
    const { statusLine: _ours, ...rest } = s;
    return rest;
  };
  return {
    install: (s: JsonObject): JsonObject => {
      if (!wanted) return without(s);
      if (s.statusLine !== undefined && !isOurStatusLine(s.statusLine)) {
        notes.push('a statusLine is already configured in this file; it was left as it is');
        return s;
      }
      const statusLine = { type: 'command', command: `${binary.command} statusline`, padding: 0 };
      return { ...s, statusLine };
    },
    remove: without,
    holdsOurs: (s: JsonObject) => isOurStatusLine(s.statusLine),
  };
}

// Our stdio server in .mcp.json's `mcpServers`; every other server stays as it is.
function mcpServersEdit(root: string, server: JsonObject): FileEdit {
  const servers = (s: JsonObject) => (isJsonObject(s.mcpServers) ? s.mcpServers : {});
  return jsonEdit({
    path: join(root, '.mcp.json'),
    display: '.mcp.json',
    install: (s) => ({ ...s, mcpServers: { ...servers(s), [MCP_SERVER_NAME]: server } }),
    remove: (s) => {
      if (!(MCP_SERVER_NAME in servers(s))) return s;
      const { [MCP_SERVER_NAME]: _ours, ...rest } = servers(s);
      const { mcpServers: _all, ...next } = s;
      return Object.keys(rest).length === 0 ? next : { ...s, mcpServers: rest };
    },
    holdsOurs: (s) => MCP_SERVER_NAME in servers(s),
  });
}

export const claudeHost: HostAdapter = {
  name: 'claude',
  // What `integrate claude` registers, with a timeout (seconds) well above what the hook needs,
  // so a stuck file system cannot hang the session for the default 10 minutes.
  events: {
    SessionStart: { kind: 'session-start', timeout: 20 },
    UserPromptSubmit: { kind: 'prompt', timeout: 5 },
    // The tools whose input names the files they change (PreToolUse checks only these).
    PreToolUse: { kind: 'pre-tool', matcher: 'Edit|Write|MultiEdit|NotebookEdit|Bash', timeout: 5 },
    PostToolUse: { kind: 'post-tool', timeout: 5, extra: { async: true } },
    PostToolUseFailure: { kind: 'post-tool', timeout: 5, extra: { async: true } },
    PreCompact: { kind: 'pre-compact', timeout: 10 },
    PostCompact: { kind: 'post-compact', timeout: 10 },
    Stop: { kind: 'stop', timeout: 10 },
  },
  statusFormat: 'xml',
  scopes: ['project', 'local', 'user'],
  flags: ['statusline', 'mcp'],
  projectDir: '$CLAUDE_PROJECT_DIR',
  // Claude Code's user directory: $CLAUDE_CONFIG_DIR, else ~/.claude.
  hooksFile: (scope, root, env) =>
    scopeFile(
      scope === 'user' ? env.CLAUDE_CONFIG_DIR || join(homeDir(env), '.claude') : null,
      root,
      '.claude',
      scope === 'local' ? 'settings.local.json' : 'settings.json',
    ),
  parse: (p, cwd) => parseHookCall(claudeHost, p, cwd, (_, name) => name !== 'PostToolUseFailure'),
  render: claudeOutput,
  install({ scope, root, env, binary, statusline, mcp, remove }) {
    const notes: string[] = [];
    const file = claudeHost.hooksFile!(scope, root, env);
    const edits = [
      hooksFileEdit(claudeHost, file, binary, statusLineEdit(binary, statusline || remove, notes)),
    ];
    if ((mcp || remove) && scope === 'project') {
      edits.push(mcpServersEdit(root, { command: binary.executable, args: ['mcp'] }));
      notes.push(
        'Claude Code asks once before it starts a project MCP server from .mcp.json: approve agent-state',
      );
    } else if (mcp) {
      notes.push(
        `register the MCP server for this scope with: claude mcp add --scope ${scope} agent-state -- ${binary.executable} mcp`,
      );
    }
    return { edits, notes };
  },
  doctor: () => [],
};
