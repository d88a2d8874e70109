// `agent-state mcp` against what a client should not send: a 30 MB message (it killed the server
// silently), ids that are objects or arrays, lines that are not JSON, and a mutating tools/call
// before initialize. Each gets its JSON-RPC error, and the server stays up.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, gitdir, runCli } from '../helpers/fixtures.js';

type Reply = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

// Writes `lines` to a fresh server, then reads its replies until `count` came (or 10 s passed).
function rawSession(cwd: string, lines: string[], count: number): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd });
    const replies: Reply[] = [];
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${replies.length} of ${count} replies: ${JSON.stringify(replies)}`));
    }, 10_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        replies.push(JSON.parse(buffer.slice(0, nl)) as Reply);
        buffer = buffer.slice(nl + 1);
      }
      if (replies.length >= count) {
        clearTimeout(timer);
        child.stdin.end();
        resolve(replies);
      }
    });
    for (const line of lines) child.stdin.write(`${line}\n`);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
});
const call = (id: unknown, text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'next', arguments: { text } },
  });

describe('agent-state mcp on bad messages', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir({ 'src/a.js': 'a\n' });
    expect((await runCli(repo, ['init', '--goal', 'Guard the server'])).code).toBe(0);
  });
  const nextAction = () =>
    /next_action: (.*)/.exec(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8'))?.[1];

  it('refuses a tools/call before initialize, and serves it after', async () => {
    const before = nextAction();
    const [refused, init, served] = await rawSession(
      repo,
      [call(1, 'too early'), initialize, call(2, 'in time')],
      3,
    );
    expect(refused).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(refused!.error!.message).toContain('initialize');
    expect(init).toMatchObject({ id: 0, result: { serverInfo: { name: 'agent-state' } } });
    expect(served).toMatchObject({ id: 2, result: {} });
    expect(before).not.toContain('too early');
    expect(nextAction()).toContain('in time');
  });

  it('answers ids that are objects or arrays, and lines that are not JSON, with an error', async () => {
    const replies = await rawSession(
      repo,
      [
        initialize,
        JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }),
        JSON.stringify({ jsonrpc: '2.0', id: [1], method: 'ping' }),
        JSON.stringify({ jsonrpc: '2.0', id: true, method: 'ping' }),
        '{"jsonrpc":"2.0","id":7,"method":',
        JSON.stringify([{ jsonrpc: '2.0', id: 8, method: 'ping' }]),
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      ],
      7,
    );
    // Refusals are written at once, the server's answers when it is done: in any order.
    const codes = replies.filter((r) => r.id === null).map((r) => r.error?.code);
    expect(codes.sort()).toEqual([-32700, -32600, -32600, -32600, -32600].sort());
    expect(replies.find((r) => r.id === 9)).toMatchObject({ result: {} });
    expect(replies.find((r) => r.id === 0)).toMatchObject({ result: {} });
  });

  it('answers a 30 MB message with an error and stays up (the real SDK client)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: repo,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'mcp-guard', version: '1.0.0' });
    await client.connect(transport);
    try {
      await expect(
        client.callTool({ name: 'next', arguments: { text: 'x'.repeat(30 * 1024 * 1024) } }),
      ).rejects.toThrow(/over 4 MiB/);
      const after = await client.callTool({ name: 'next', arguments: { text: 'still up' } });
      expect(after.isError).toBeFalsy();
      expect(nextAction()).toContain('still up');
    } finally {
      await client.close();
    }
  });
});
