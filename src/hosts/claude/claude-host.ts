// Claude Code: hooks in .claude/settings.json (project), .claude/settings.local.json (local) or
// ~/.claude/settings.json (user); optionally a statusLine and the MCP server in .mcp.json.
// Formats: https://code.claude.com/docs/en/hooks, /statusline, /mcp (see docs/integrations.md).
import { join } from 'node:path';
import type { HostAdapter, HostHookRegistration, IntegrationScope } from '../host-adapter.js';
import type { HostHookEvent, HostHookOutcome } from '../host-hook-event.js';
import { parseHookCall } from '../host-hook-payload.js';
import type { FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { commandRuns, hooksFileEdit } from '../install/hook-groups.js';
import type { HookBinary } from '../install/hook-binary.js';
import type { JsonObject } from '../install/json-text.js';
import { mcpServersEdit } from '../install/mcp-json.js';

/** The tools whose input names the files they change (PreToolUse checks only these). */
export const CLAUDE_EDIT_MATCHER = 'Edit|Write|MultiEdit|NotebookEdit|Bash';

/**
 * What `integrate claude` registers, event by event, with a timeout (seconds) well above what
 * the hook needs, so a stuck file system cannot hang the session for the default 10 minutes.
 */
const EVENTS: Record<string, HostHookRegistration> = {
  SessionStart: { kind: 'session-start', timeout: 20 },
  UserPromptSubmit: { kind: 'prompt', timeout: 5 },
  PreToolUse: { kind: 'pre-tool', matcher: CLAUDE_EDIT_MATCHER, timeout: 5 },
  PostToolUse: { kind: 'post-tool', timeout: 5 },
  PostToolUseFailure: { kind: 'post-tool', timeout: 5 },
  PreCompact: { kind: 'pre-compact', timeout: 10 },
  PostCompact: { kind: 'post-compact', timeout: 10 },
  Stop: { kind: 'stop', timeout: 10 },
};

const isOurStatusLine = commandRuns('statusline');

// Claude Code's user directory: $CLAUDE_CONFIG_DIR, else ~/.claude.
const userDir = (env: NodeJS.ProcessEnv) => env.CLAUDE_CONFIG_DIR || join(homeDir(env), '.claude');

/**
 * Claude Code's answer: hookSpecificOutput.additionalContext; PreToolUse denies with
 * permissionDecision; Stop and PreCompact block with a top-level decision.
 */
export function claudeOutput(event: HostHookEvent, outcome: HostHookOutcome): JsonObject {
  if (outcome.deny && event.kind === 'pre-tool') {
    return {
      hookSpecificOutput: {
        hookEventName: event.hostEvent,
        permissionDecision: 'deny',
        permissionDecisionReason: outcome.deny,
      },
    };
  }
  if (outcome.block && (event.kind === 'stop' || event.kind === 'pre-compact'))
    return { decision: 'block', reason: outcome.block };
  const out: JsonObject = {};
  if (outcome.context && event.kind !== 'stop' && event.kind !== 'pre-compact')
    out.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: outcome.context };
  if (outcome.userMessage) out.systemMessage = outcome.userMessage;
  return out;
}

// The statusLine entry in the same settings file: ours is replaced, someone else's kept.
function statusLineEdit(binary: HookBinary, wanted: boolean, notes: string[]) {
  const without = (s: JsonObject): JsonObject => {
    if (!isOurStatusLine(s.statusLine)) return s;
    const next = { ...s };
    delete next.statusLine;
    return next;
  };
  return {
    install: (s: JsonObject): JsonObject => {
      if (!wanted) return without(s);
      if (s.statusLine !== undefined && !isOurStatusLine(s.statusLine)) {
        notes.push('a statusLine is already configured in this file; it was left as it is');
        return s;
      }
      return {
        ...s,
        statusLine: { type: 'command', command: `${binary.command} statusline`, padding: 0 },
      };
    },
    remove: without,
    holdsOurs: (s: JsonObject) => isOurStatusLine(s.statusLine),
  };
}

export const claudeHost: HostAdapter = {
  name: 'claude',
  events: EVENTS,
  statusFormat: 'xml',
  scopes: ['project', 'local', 'user'],
  flags: ['statusline', 'mcp'],
  projectDir: '$CLAUDE_PROJECT_DIR',
  hooksFile(scope: IntegrationScope, root, env) {
    if (scope === 'user')
      return { path: join(userDir(env), 'settings.json'), display: '~/.claude/settings.json' };
    const name = scope === 'local' ? 'settings.local.json' : 'settings.json';
    return { path: join(root, '.claude', name), display: `.claude/${name}` };
  },
  parse: (p, cwd) => parseHookCall(claudeHost, p, cwd, (_, name) => name !== 'PostToolUseFailure'),
  render: claudeOutput,
  install({ scope, root, env, binary, statusline, mcp, remove }) {
    const notes: string[] = [];
    const file = claudeHost.hooksFile!(scope, root, env);
    const edits: FileEdit[] = [
      hooksFileEdit(claudeHost, file, binary, statusLineEdit(binary, statusline || remove, notes)),
    ];
    if ((mcp || remove) && scope === 'project') {
      edits.push(
        mcpServersEdit(join(root, '.mcp.json'), '.mcp.json', {
          command: binary.executable,
          args: ['mcp'],
        }),
      );
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
