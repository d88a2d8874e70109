// agent-state/ai-sdk: agent-state in an AI SDK (`ai` 7, Node 22+) agent, in-process (docs/api.md).
// `ai` is an optional peer dependency: only its types are used here.
export {
  agentStateMiddleware,
  withAgentState,
  type AgentStateAiOptions,
  type WithAgentStateOptions,
} from '../adapters/ai-sdk.js';
