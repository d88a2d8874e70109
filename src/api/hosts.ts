// agent-state/hosts: what a host hook call does, piece by piece — payload parsing, the tool
// check, answers, the status line (docs/integrations.md).
export {
  INTEGRATION_HOSTS,
  AGENTS_MD_FILES,
  type IntegrationScope,
} from '../integrations/integrate.js';
export type { IntegrationChange, ChangeAction } from '../integrations/file-edits.js';
export type { HookBinary } from '../integrations/hook-binary.js';
export { PROTOCOL_BLOCK } from '../integrations/protocol-block.js';
export type { DoctorCheck, CheckStatus } from '../integrations/doctor.js';
export type { RunHostHookOptions } from '../integrations/host-hook/run-host-hook.js';
export { parseHookPayload, HookInputError } from '../integrations/host-hook/parse-payload.js';
export { renderHookOutput } from '../integrations/host-hook/render-output.js';
export type {
  HookEvent,
  HookKind,
  HookOutcome,
  HookTool,
} from '../integrations/host-hook/hook-event.js';
export type { HookServices, HookFact } from '../integrations/host-hook/handle-event.js';
export { checkToolCall, type ToolFinding } from '../integrations/host-hook/tool-check.js';
export { shellWrittenPaths } from '../integrations/host-hook/shell-paths.js';
export {
  renderStatusline,
  runStatusline,
  type StatuslineFacts,
} from '../integrations/statusline.js';
export type { McpServerOptions } from '../integrations/mcp/server.js';
