// The MCP server entry in a JSON config's `mcpServers` map (Claude Code's .mcp.json). Only the
// `agent-state` key is ours; every other server stays as it is.
import { jsonEdit, type FileEdit } from './file-edits.js';
import { isJsonObject, type JsonObject } from './json-text.js';

/** The server name we register. */
export const MCP_SERVER_NAME = 'agent-state';

/** The FileEdit that registers (or removes) our stdio server in `mcpServers`. */
export function mcpServersEdit(
  path: string,
  display: string,
  server: { command: string; args: string[] },
): FileEdit {
  return jsonEdit({
    path,
    display,
    install: (s) => {
      const servers = isJsonObject(s.mcpServers) ? s.mcpServers : {};
      return { ...s, mcpServers: { ...servers, [MCP_SERVER_NAME]: { ...server } } };
    },
    remove: (s) => {
      if (!isJsonObject(s.mcpServers) || !(MCP_SERVER_NAME in s.mcpServers)) return s;
      const servers: JsonObject = { ...s.mcpServers };
      delete servers[MCP_SERVER_NAME];
      const next = { ...s, mcpServers: servers };
      if (Object.keys(servers).length === 0) delete (next as JsonObject).mcpServers;
      return next;
    },
    holdsOurs: (s) => isJsonObject(s.mcpServers) && MCP_SERVER_NAME in s.mcpServers,
  });
}
