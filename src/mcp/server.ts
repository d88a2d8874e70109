// `agent-state mcp`: the task state as a stdio MCP server (SDK 2.x). Eight small tools and three
// resources; the whole tools/list answer stays under 1,500 tokens (a test counts them), because
// every tool description is paid for on every request of the agent. Nothing but MCP goes to
// stdout; the tools call the library in-process.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { describeError, errorText as reportText } from '../error-report.js';
import { packageVersion } from '../package-root.js';
import { findRoot } from '../state/find-root.js';
import { redactSecrets, redactValue } from '../text/redact.js';
import { safeText, safeValue } from '../text/safe-text.js';
import { entryFiles } from '../evidence/evidence-folder.js';
import { mcpTools, type McpToolContext } from './tools.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { StatePaths } from '../state/paths.js';

/** The directory whose task the server serves (the state root is found from there), env, clock. */
export type McpServerOptions = Omit<McpToolContext, 'now'> & Partial<McpToolContext>;

// Evidence entries are MCP resources: the files as written (the files are the interface).
/** The text of one entry, by its number (or file name); UsageError when there is none. */
export function readEvidenceFile(paths: StatePaths, id: string): string {
  const wanted = id.replace(/\.md$/, '');
  const entry = entryFiles(paths).find(
    (e) => e.id === wanted || e.name === `${wanted}.md` || Number(e.id) === Number(wanted),
  );
  if (!entry)
    throw new UsageError(`no evidence entry "${id}"`, { hint: 'list them with resources/list' });
  return readFileSync(join(paths.evidenceDir, entry.name), 'utf8');
}

type TextResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** A tool error as the agent should read it: what failed, where, and the fix. */
export const errorText = (error: unknown): string =>
  `agent-state: ${reportText(describeError(error))}`;

// What reaches the model: secrets redacted from the data (a text is a rendering — the boot
// prompt — made from redacted data), control characters made visible.
function text(value: unknown): TextResult {
  const shown =
    typeof value === 'string'
      ? safeText(value)
      : JSON.stringify(safeValue(redactValue(value)), null, 2);
  return { content: [{ type: 'text', text: shown }] };
}

// A state file as a resource: YAML or Markdown, which the redactor reads like a log.
const fileText = (text: string): string => safeText(redactSecrets(text).text);

/** Builds the server with every tool and resource registered (not yet connected). */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'agent-state', version: packageVersion() },
    {
      instructions:
        'Durable task state (.agent/). Call boot after a restart or compaction; check before redoing a step; done when a step is finished; checkpoint after progress.',
    },
  );
  const { cwd, env, now = () => new Date() } = options;
  const ctx: McpToolContext = { cwd, env, now };
  for (const tool of mcpTools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: z.object(tool.input) },
      async (args: Record<string, unknown>) => {
        try {
          return text(await tool.run(args, ctx));
        } catch (error) {
          return { ...text(errorText(error)), isError: true };
        }
      },
    );
  }
  const markdown = 'text/markdown';
  const contents = (uri: URL, mimeType: string, text: string) => ({
    contents: [{ uri: uri.href, mimeType, text: fileText(text) }],
  });
  // The two state files, read as they are on disk at each request.
  const stateFiles = [
    ['goals', 'goals.md: anchor, success criteria, constraints, forbidden, non-goals', markdown],
    ['progress', 'progress.yaml: stage, next action, plan, markers, stamp', 'application/yaml'],
  ] as const;
  for (const [name, description, mimeType] of stateFiles)
    server.registerResource(name, `agent-state://${name}`, { description, mimeType }, (uri) =>
      contents(uri, mimeType, readFileSync(findRoot(options.cwd)[name], 'utf8')),
    );
  server.registerResource(
    'evidence',
    new ResourceTemplate('agent-state://evidence/{id}', {
      list: () => ({
        resources: entryFiles(findRoot(options.cwd)).map((entry) => ({
          uri: `agent-state://evidence/${entry.id}`,
          name: entry.name,
          mimeType: markdown,
        })),
      }),
    }),
    { description: 'one evidence entry (newest N kept)', mimeType: markdown },
    (uri, { id }) => contents(uri, markdown, readEvidenceFile(findRoot(options.cwd), String(id))),
  );
  return server;
}

/** Serves MCP on this process's stdio until the client closes stdin. */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const { guardStdin, MAX_MESSAGE_BYTES } = await import('./guard-stdin.js');
  // A client that went away mid-answer is not an error of ours (the CLI's own output drops the
  // rest the same way: src/cli/fd-stream.ts).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const input = guardStdin(process.stdin, ({ id, code, message }) =>
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`),
  );
  await new Promise<void>((resolve) => {
    const handle = serveStdio(() => createMcpServer(options), {
      transport: new StdioServerTransport(input, process.stdout, {
        maxBufferSize: 2 * MAX_MESSAGE_BYTES,
      }),
      onerror: (error) => process.stderr.write(`agent-state mcp: ${error.message}\n`),
    });
    process.stdin.once('end', () => void handle.close().then(resolve, resolve));
    process.stdin.once('close', () => void handle.close().then(resolve, resolve));
  });
}
