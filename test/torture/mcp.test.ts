// MCP garbage: raw bytes and malformed JSON-RPC on the server's stdin, then every tool called by
// the real SDK client with arguments of the wrong type or hostile content. The server answers
// what it can, never writes anything but JSON-RPC on stdout, never dies, prints no stack trace,
// sends no control character or secret to the model, and exits 0 when stdin closes.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTROL } from '../helpers/controls.js';
import { BIN } from '../helpers/fixtures.js';
import { SECRETS } from '../helpers/secrets.js';
import {
  CLEAN_ENV,
  SEED,
  STACK_LINE,
  clip,
  expectNoViolations,
  jsonStrings,
  report,
  richRepo,
  scaled,
  secretIn,
  type Violation,
} from './harness.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'torture', version: '1' },
  },
};

const call = (id: unknown, name: unknown, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

// Lines a confused or hostile client could send, in order: before and after the handshake.
function rawLines(): { before: string[]; after: string[] } {
  const before = [
    '{',
    'null',
    '[]',
    '"x"',
    '42',
    '\u0000\u0001\u0002',
    JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'initialize' }),
    JSON.stringify({ jsonrpc: '2.0', method: 'tools/list' }),
    JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'tools/list' }),
    call(2, 'status', {}),
  ];
  const after = [
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'no/such/method' }),
    JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call' }),
    call(12, 'no_such_tool', {}),
    call(13, 'next', ['not', 'an', 'object']),
    call(14, 'next', { text: 42, stage: { x: 1 } }),
    call(15, 'plan_update', { action: 'explode', id: '../../etc/passwd' }),
    call(16, 'done', { id: 't1', files: ['../../../etc/passwd', '/etc/shadow'] }),
    call(17, 'check', { ids: 'not-a-list' }),
    call(18, 'evidence_add', { kind: 'Bad Kind', summary: '' }),
    call(19, 'boot', { level: '9' }),
    call(20, 'next', { text: `x\u001b]0;pwned\u0007 ${SECRETS.github_token}` }),
    call(21, 'evidence_add', {
      kind: 'note',
      summary: `uses ${SECRETS.aws_access_key}`,
      body: SECRETS.private_key,
    }),
    JSON.stringify({
      jsonrpc: '2.0',
      id: 22,
      method: 'resources/read',
      params: { uri: 'agent-state://evidence/../../etc/passwd' },
    }),
    JSON.stringify({
      jsonrpc: '2.0',
      id: 23,
      method: 'resources/read',
      params: { uri: 'file:///etc/passwd' },
    }),
    JSON.stringify({ jsonrpc: '2.0', id: 24, method: 'prompts/list' }),
    JSON.stringify([
      { jsonrpc: '2.0', id: 25, method: 'tools/list' },
      { jsonrpc: '2.0', id: 26, method: 'ping' },
    ]),
    JSON.stringify({ jsonrpc: '2.0', id: 27, method: 'ping' }),
    JSON.stringify({ jsonrpc: '2.0', id: 27, method: 'ping' }),
    JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }),
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    call(28, 'next', { text: 'x'.repeat(2_000_000) }),
    ...fc
      .sample(fc.string({ unit: 'binary', maxLength: 80 }), { numRuns: scaled(10), seed: SEED })
      .map((s) => s.replace(/\n/g, ' ')),
    JSON.stringify({ jsonrpc: '2.0', id: 9999, method: 'tools/list' }),
  ];
  return { before, after };
}

interface RawResult {
  lines: string[];
  stderr: string;
  code: number | null;
}

// Writes the lines to a fresh server (the handshake in between), waits for the reply to id 9999,
// then closes stdin and waits for the exit.
function rawSession(
  repo: string,
  lines: { before: string[]; after: string[] },
): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: repo, env: CLEAN_ENV });
    let stdout = '';
    let stderr = '';
    let closing = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!closing && /"id":9999\b/.test(stdout)) {
        closing = true;
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ lines: stdout.split('\n').filter((l) => l !== ''), stderr, code });
    });
    child.stdin.on('error', () => undefined);
    for (const line of [...lines.before, JSON.stringify(INIT), ...lines.after])
      child.stdin.write(`${line}\n`);
  });
}

const hostile = fc.oneof(
  fc.constantFrom(
    '',
    '../../etc/passwd',
    '/etc/shadow',
    `x\u001b[2J\u0007`,
    '\u202e',
    't1',
    'auto',
    '9',
    ...Object.values(SECRETS),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

const TOOL_FIELDS: Record<string, string[]> = {
  boot: ['level'],
  status: [],
  next: ['text', 'stage'],
  plan_update: ['action', 'id', 'title', 'note'],
  done: ['id', 'files', 'note'],
  check: ['ids'],
  evidence_add: ['kind', 'summary', 'body'],
  checkpoint: ['message', 'next', 'no_test'],
};

function checkText(text: string, where: string): Violation[] {
  const found: Violation[] = [];
  const control = CONTROL.exec(text);
  if (control)
    found.push({
      kind: 'control character',
      detail: `${where}: ${JSON.stringify(clip(text, 300))}`,
    });
  const secret = secretIn(text);
  if (secret)
    found.push({
      kind: 'secret on disk',
      detail: `${where}: sent ${secret.slice(0, 12)}… to the model`,
    });
  return found;
}

describe('MCP garbage', () => {
  it('raw stdio: answers JSON-RPC only, survives every line, exits 0 on EOF', async () => {
    const repo = await richRepo();
    const lines = rawLines();
    const result = await rawSession(repo, lines);
    const violations: Violation[] = [];
    for (const line of result.lines) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        violations.push({ kind: 'MCP stdout not JSON-RPC', detail: clip(line) });
        continue;
      }
      if ((message as { jsonrpc?: unknown }).jsonrpc !== '2.0')
        violations.push({ kind: 'MCP stdout not JSON-RPC', detail: clip(line) });
      for (const text of jsonStrings(message))
        violations.push(...checkText(text, `reply ${clip(line, 120)}`));
    }
    if (!result.lines.some((l) => /"id":9999\b/.test(l) && l.includes('"tools"')))
      violations.push({
        kind: 'MCP server died',
        detail: `no reply to the last tools/list; stderr: ${clip(result.stderr)}`,
      });
    if (STACK_LINE.test(result.stderr))
      violations.push({ kind: 'stack trace', detail: clip(result.stderr, 2000) });
    if (result.code !== 0)
      violations.push({ kind: 'MCP exit', detail: `exit ${result.code} after EOF` });
    report('mcp-raw', { probes: lines.before.length + lines.after.length }, violations);
    expectNoViolations(violations);
    // It answered the requests it could (errors included), not only the last one.
    expect(result.lines.length).toBeGreaterThan(15);
  });

  it(`SDK client: ${scaled(4)} hostile calls per tool, each answered, none fatal`, async () => {
    const repo = await richRepo();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: repo,
      stderr: 'pipe',
      env: CLEAN_ENV as Record<string, string>,
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'torture', version: '1.0.0' });
    await client.connect(transport);
    const violations: Violation[] = [];
    let probes = 0;
    try {
      for (const [tool, fields] of Object.entries(TOOL_FIELDS)) {
        const argsArb = fc.dictionary(fc.constantFrom(...fields, 'extra'), hostile, {
          maxKeys: fields.length + 1,
        });
        for (const args of fc.sample(argsArb, { numRuns: scaled(4), seed: SEED + probes })) {
          probes++;
          const where = `tools/call ${tool} ${clip(JSON.stringify(args), 200)}`;
          try {
            const result = (await client.callTool({
              name: tool,
              arguments: args as Record<string, unknown>,
            })) as {
              content?: { type: string; text?: string }[];
            };
            for (const part of result.content ?? [])
              violations.push(...checkText(part.text ?? '', where));
          } catch (error) {
            // A protocol error (invalid params) is an answer; a closed connection is not.
            const message = error instanceof Error ? error.message : String(error);
            if (/closed|EPIPE|not connected/i.test(message))
              violations.push({ kind: 'MCP server died', detail: `${where}: ${message}` });
            else violations.push(...checkText(message, where));
          }
        }
      }
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const uri of ['agent-state://goals', 'agent-state://progress']) {
        probes++;
        const read = await client.readResource({ uri });
        for (const content of read.contents)
          violations.push(...checkText(String((content as { text?: string }).text ?? ''), uri));
      }
    } finally {
      await client.close();
    }
    if (STACK_LINE.test(stderr))
      violations.push({ kind: 'stack trace', detail: clip(stderr, 2000) });
    report('mcp-sdk', { probes }, violations);
    expectNoViolations(violations);
  });
});
