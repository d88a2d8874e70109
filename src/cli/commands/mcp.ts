// `agent-state mcp`: serve the task state over MCP on stdio (for Claude Code, Codex, and any MCP
// client). Nothing but MCP is written to stdout; diagnostics go to stderr.
import type { AgentCommand } from '../agent-command.js';

export function registerMcp(program: AgentCommand): void {
  program
    .command('mcp')
    .description(
      'serve the task state as an MCP server on stdio (8 tools, goals/progress/evidence resources)',
    )
    .helpAfter(
      `
Tools: boot, status, next, plan_update, done, check, evidence_add, checkpoint.
Resources: agent-state://goals, agent-state://progress, agent-state://evidence/{id}.
Register it with \`agent-state integrate claude --mcp\` or \`agent-state integrate codex --mcp\`.

Examples:
  $ agent-state mcp
  $ claude mcp add agent-state -- agent-state mcp`,
    )
    .run(async (ctx) => {
      const { serveMcp } = await import('../../mcp/server.js');
      await serveMcp(ctx);
    });
}
