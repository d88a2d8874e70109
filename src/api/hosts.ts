// agent-state/hosts: what a host hook call does, piece by piece — the host adapters, payload
// parsing, the tool check, answers, the status line (docs/integrations.md).
export { INTEGRATION_HOSTS, AGENTS_MD_FILES } from '../hosts/host-names.js';
export type { IntegrationChange, ChangeAction } from '../hosts/install/file-edits.js';
export type { HookBinary } from '../hosts/install/hook-binary.js';
export { PROTOCOL_BLOCK } from '../hosts/install/protocol-block.js';
export type {
  CheckStatus,
  DoctorCheck,
  HostHookRegistration,
  IntegrationScope,
} from '../hosts/host-adapter.js';
export { renderHostHookOutput, type RunHostHookOptions } from '../hosts/run-host-hook.js';
export { parseHostHookPayload, HostHookInputError } from '../hosts/host-hook-payload.js';
export type {
  HostHookEvent,
  HostHookFact,
  HostHookKind,
  HostHookOutcome,
  HostHookTool,
} from '../hosts/host-hook-event.js';
export { checkToolCall, type ToolFinding } from '../hosts/tool-check.js';
export { shellWrittenPaths } from '../hosts/shell-paths.js';
export {
  renderStatusline,
  runStatusline,
  type StatuslineValues,
} from '../hosts/claude/statusline.js';
export type { McpServerOptions } from '../mcp/server.js';
