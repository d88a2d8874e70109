// agent-state in a Claude Agent SDK session: its hook inputs are Claude Code's hook payloads, so
// each callback is one `agent-state hook claude` run in-process. Only the SDK's types are imported.
import { readFileSync } from 'node:fs';
import type {
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookJSONOutput,
  McpSdkServerConfigWithInstance,
} from '@anthropic-ai/claude-agent-sdk';
import { AGENT_ENV } from '../state/agent-name.js';
import { findRoot } from '../state/find-root.js';
import { claudeHost } from '../hosts/claude/claude-host.js';
import { hasOurHooks, isHostHook } from '../hosts/install/hook-groups.js';
import { isJsonObject } from '../hosts/install/json-text.js';
import { orElse } from '../hosts/or-else.js';
import { runHostHook } from '../hosts/run-host-hook.js';
import { createAgentStateMcpServer } from '../mcp/lazy.js';

export interface AgentStateSdkOptions {
  /** Where the state is looked up when the SDK's input names no `cwd`. Default `process.cwd()`. */
  cwd?: string;
  /** The agent the session acts as (docs/multi-agent.md). Default `AGENT_STATE_AGENT`. */
  agent?: string;
}

// The session's environment: the process's, with the agent it acts as.
const sessionEnv = ({ agent }: AgentStateSdkOptions) =>
  agent ? { ...process.env, [AGENT_ENV]: agent } : process.env;

// The SDK loads the project's settings files by default: hooks that `integrate claude` wrote there
// would run next to these, and every fact would be recorded twice. Said once per repository.
const checkedRoots = new Set<string>();
function warnIfIntegrated(cwd: string): void {
  const root = orElse(() => findRoot(cwd).root, null);
  if (root === null || checkedRoots.has(root)) return;
  checkedRoots.add(root);
  for (const scope of claudeHost.scopes) {
    const { path, display } = claudeHost.hooksFile!(scope, root, process.env);
    const settings = orElse(() => JSON.parse(readFileSync(path, 'utf8')) as unknown, null);
    if (isJsonObject(settings) && hasOurHooks(settings, isHostHook(claudeHost)))
      process.emitWarning(
        `${display} runs \`agent-state hook claude\` too: unless query()'s settingSources leaves out '${scope}', each hook runs twice. Pass settingSources without it, or run \`agent-state integrate claude --remove --scope ${scope}\``,
        { code: 'AGENT_STATE_DUPLICATE_HOOKS' },
      );
  }
}

/**
 * The hooks for `query({ prompt, options: { hooks: agentStateHooks() } })`: the events, matchers
 * and timeouts `integrate claude` registers. The SDK calls SessionStart only after a compaction,
 * so the first prompt of a session carries the boot prompt unless a SessionStart came first.
 */
export function agentStateHooks(
  options: AgentStateSdkOptions = {},
): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  let booted = false;
  const said = new Set<string>();
  const hook: HookCallback = async (input): Promise<HookJSONOutput> => {
    warnIfIntegrated(input.cwd);
    const event = input.hook_event_name;
    let payload: object = input;
    if (event === 'UserPromptSubmit' && !booted)
      payload = { ...input, hook_event_name: 'SessionStart', source: 'startup' };
    if (event === 'SessionStart' || event === 'UserPromptSubmit') booted = true;
    const result = await runHostHook('claude', JSON.stringify(payload), {
      cwd: options.cwd ?? process.cwd(),
      env: sessionEnv(options),
    });
    const note = result.stderr.trim();
    if (note && !said.has(note)) {
      said.add(note);
      process.emitWarning(note, { code: 'AGENT_STATE_HOOK' });
    }
    if (!result.stdout) return {};
    const out = JSON.parse(result.stdout) as HookJSONOutput;
    // A boot rendered as SessionStart's answer reaches the model as this event's.
    if ('hookSpecificOutput' in out && out.hookSpecificOutput)
      (out.hookSpecificOutput as { hookEventName: string }).hookEventName = event;
    return out;
  };
  return Object.fromEntries(
    Object.entries(claudeHost.events)
      .filter(([, { timeout }]) => timeout !== undefined)
      .map(([event, { matcher, timeout }]) => [
        event,
        [{ ...(matcher ? { matcher } : {}), timeout, hooks: [hook] }],
      ]),
  );
}

/**
 * The tools and resources of `agent-state mcp` as an in-process server, for `query({ options: {
 * mcpServers: { 'agent-state': await agentStateMcpServer() } } })` (one per query).
 */
export async function agentStateMcpServer(
  options: AgentStateSdkOptions = {},
): Promise<McpSdkServerConfigWithInstance> {
  const env = sessionEnv(options);
  const server = await createAgentStateMcpServer({ cwd: options.cwd ?? process.cwd(), env });
  // The SDK's type names the MCP SDK 1.x class; it only calls connect() with its own transport,
  // which this 2.x server takes as well.
  const instance = server as unknown as McpSdkServerConfigWithInstance['instance'];
  return { type: 'sdk', name: 'agent-state', instance };
}
