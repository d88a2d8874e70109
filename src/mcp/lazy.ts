// The MCP entry points for library users, loading the MCP SDK only when called (importing
// agent-state must not pay for the SDK).
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpServerOptions } from './server.js';

/** Builds the agent-state MCP server (tools and resources registered, not connected). */
export async function createAgentStateMcpServer(options: McpServerOptions): Promise<McpServer> {
  return (await import('./server.js')).createMcpServer(options);
}

/** Serves the agent-state MCP server on this process's stdio. */
export async function serveAgentStateMcp(options: McpServerOptions): Promise<void> {
  return (await import('./server.js')).serveMcp(options);
}
