// `agent-state mcp` end to end with the real SDK Client over stdio: initialize, tools/list (and
// what it costs in tokens), resources, and tool calls against a real repository.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { encode } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('agent-state mcp (real SDK client over stdio)', () => {
  let repo: string;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    repo = gitdir({ 'package.json': '{}\n', 'src/a.js': 'export const a = 1;\n' });
    expect((await runCli(repo, ['init', '--goal', 'Serve the state over MCP'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'Write a', '--id', 't1'])).code).toBe(0);
    expect(
      (await runCli(repo, ['plan', 'add', 'Document a', '--id', 't2', '--needs', 't1'])).code,
    ).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: repo,
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'agent-state-e2e', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it('initializes as agent-state', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'agent-state' });
  });

  it('lists at most 8 tools, and the whole tools/list answer costs ≤ 1,500 tokens', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'boot',
      'status',
      'next',
      'plan_update',
      'done',
      'check',
      'evidence_add',
      'checkpoint',
    ]);
    const tokens = encode(JSON.stringify({ tools })).length;
    expect(tokens).toBeLessThanOrEqual(1500);
    expect(tokens).toBeGreaterThan(100); // the count measures something real
  });

  it('serves goals and progress as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['agent-state://goals', 'agent-state://progress']),
    );
    const goals = await client.readResource({ uri: 'agent-state://goals' });
    expect((goals.contents[0] as { text: string }).text).toContain('Serve the state over MCP');
  });

  it('status, next and plan_update change and report the real state', async () => {
    // t2 needs t1: only t1 can start now.
    expect(JSON.parse((await call('status')).content[0]!.text).ready).toEqual([
      { id: 't1', title: 'Write a' },
    ]);
    const next = await call('next', { text: 'Write src/a.js tests', stage: 'implementing' });
    expect(JSON.parse(next.content[0]!.text)).toMatchObject({
      next_action: 'Write src/a.js tests',
      stage: 'implementing',
      changed: true,
    });
    const started = await call('plan_update', { action: 'start', id: 't1' });
    expect(JSON.parse(started.content[0]!.text).item).toMatchObject({
      id: 't1',
      status: 'running',
    });
    const status = JSON.parse((await call('status')).content[0]!.text) as {
      next_action: string;
      plan: { running: number };
    };
    expect(status).toMatchObject({
      next_action: 'Write src/a.js tests',
      plan: { running: 1 },
      ready: [],
    });
    const shown = await runCli(repo, ['next', '--json']);
    expect(JSON.parse(shown.stdout).next_action).toBe('Write src/a.js tests');
  });

  it('boot returns the restart prompt', async () => {
    const result = await call('boot', { level: '2' });
    expect(result.isError, result.content[0]!.text).toBeFalsy();
    expect(result.content[0]!.text).toMatch(/level 2/);
    expect(result.content[0]!.text).toContain('Serve the state over MCP');
    // Logged as every boot is: the level, why, and what it left out.
    const events = await runCli(repo, ['events', '--type', 'boot', '--json']);
    expect(JSON.parse(events.stdout).events.at(-1)).toMatchObject({
      type: 'boot',
      level: 2,
      omitted: expect.any(Array),
    });
  });

  it('done records a completion marker, and check confirms it (then sees it go stale)', async () => {
    const done = await call('done', { id: 't1', files: ['src/a.js'], note: 'written' });
    expect(done.isError, done.content[0]!.text).toBeFalsy();
    expect(JSON.parse(done.content[0]!.text)).toMatchObject({
      id: 't1',
      files: 1,
      status: 'done',
    });
    const valid = JSON.parse((await call('check', { ids: ['t1'] })).content[0]!.text) as {
      ok: boolean;
      markers: { state: string }[];
    };
    expect(valid).toEqual({ ok: true, markers: [{ id: 't1', state: 'valid', changed: [] }] });
    writeFiles(repo, { 'src/a.js': 'export const a = 2;\n' });
    const stale = JSON.parse((await call('check', { ids: ['t1'] })).content[0]!.text) as {
      ok: boolean;
    };
    expect(stale).toEqual({
      ok: false,
      markers: [{ id: 't1', state: 'stale', changed: ['src/a.js'] }],
    });
  });

  it('evidence_add records an entry; checkpoint refuses a stale marker, then saves progress (the resource lists the entries)', async () => {
    const added = await call('evidence_add', {
      kind: 'decision',
      summary: 'Keep a as a constant',
      body: 'Simpler.',
    });
    expect(added.isError, added.content[0]!.text).toBeFalsy();
    expect(JSON.parse(added.content[0]!.text)).toMatchObject({ redactions: 0 });
    // The previous test left t1's marker stale: the checkpoint refuses and says why.
    const refused = await call('checkpoint', { message: 'a written', no_test: true });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(
      /checkpoint refused \(verify\): marker t1 is stale: src\/a\.js/,
    );
    // The fix a STALE names: the same files again.
    const refreshed = await call('done', { id: 't1', refresh: true });
    expect(JSON.parse(refreshed.content[0]!.text)).toMatchObject({ id: 't1', files: 1 });
    const saved = await call('checkpoint', { message: 'a written', no_test: true });
    expect(saved.isError, saved.content[0]!.text).toBeFalsy();
    expect(JSON.parse(saved.content[0]!.text)).toMatchObject({ checkpoint: 1 });
    const { resources } = await client.listResources();
    expect(
      resources.filter((r) => r.uri.startsWith('agent-state://evidence/')).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('a bad call is a tool error that says what to fix, and the server keeps serving', async () => {
    const bad = await call('plan_update', { action: 'start', id: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toBe('agent-state: no plan item "nope" (fix: use one of: t1, t2)');
    expect((await call('status')).isError).toBeFalsy();
    expect(stderr).toBe('');
  });

  it('an error that quotes its input sends no secret in it to the model (torture seed 306381821)', async () => {
    for (const kind of ['github_token', 'aws_access_key']) {
      const bad = await call('done', { id: `t-${SECRETS[kind]}` });
      expect(bad.isError).toBe(true);
      expect(bad.content[0]!.text).toMatch(/^agent-state: no plan item "t-\[REDACTED/);
      expect(bad.content[0]!.text).not.toContain(sensitivePart(kind, SECRETS[kind]!));
    }
  });
});
