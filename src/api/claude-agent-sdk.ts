// agent-state/claude-agent-sdk: agent-state in a Claude Agent SDK session, in-process (docs/api.md).
// `@anthropic-ai/claude-agent-sdk` is an optional peer dependency: only its types are used here.
export {
  agentStateHooks,
  agentStateMcpServer,
  type AgentStateSdkOptions,
} from '../adapters/claude-agent-sdk.js';
