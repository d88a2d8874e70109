// The Claude Agent SDK (the devDependency package.json pins) and the Claude Code it ships, against
// the Anthropic Messages stub, with agent-state's in-process hooks and MCP server
// (agent-state/claude-agent-sdk). The repository is not wired by `integrate`, and the only
// `agent-state` on PATH is a trap that logs its calls: every fact must come from this process.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentStateHooks, agentStateMcpServer } from '../../src/api/claude-agent-sdk.js';
import { anthropicMessages } from './harness/anthropic-messages.js';
import { FORBIDDEN_CONTENT, FORBIDDEN_FILE, hostRepo, type HostRepo } from './harness/host-repo.js';
import { claude } from './harness/hosts/claude.js';
import { REPO_ROOT, testdir } from '../helpers/fixtures.js';
import {
  allText,
  startModelStub,
  type ModelStub,
  type ScriptEntry,
  type StubRequest,
} from './harness/model-stub.js';

type Block = { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
type Message = { role: string; content: string | Block[] };

const messages = (request: StubRequest | undefined): Message[] =>
  (request?.body as { messages?: Message[] } | null)?.messages ?? [];

let repo: HostRepo;
let stub: ModelStub;
let env: Record<string, string>;
let trapLog: string;

/** The tool_result the model was sent for one tool_use id. */
function resultOf(id: string): Block {
  for (const turn of stub.turns())
    for (const m of messages(turn))
      if (Array.isArray(m.content))
        for (const b of m.content) if (b.type === 'tool_result' && b.tool_use_id === id) return b;
  throw new Error(`no tool_result for ${id} in ${stub.turns().length} requests`);
}

/** The user's messages of a session, one after another (the SDK's streaming input). */
async function* prompts(texts: string[]): AsyncIterable<SDKUserMessage> {
  for (const text of texts)
    yield { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null };
}

/**
 * Runs one session with agent-state's hooks (and more options) until it ends, and returns the
 * events it added to the log.
 */
async function run(
  prompt: string | string[],
  script: ScriptEntry[],
  more: Parameters<typeof query>[0]['options'] = {},
): Promise<Record<string, unknown>[]> {
  stub.reset(script);
  stub.requests.length = 0;
  const before = repo.events().length;
  let stderr = '';
  const seen: SDKMessage[] = [];
  for await (const message of query({
    prompt: typeof prompt === 'string' ? prompt : prompts(prompt),
    options: {
      cwd: repo.dir,
      env,
      hooks: agentStateHooks(),
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      stderr: (text) => (stderr += text),
      ...more,
    },
  }))
    seen.push(message);
  const results = seen.filter((m) => m.type === 'result');
  expect(results.length, stderr).toBe(typeof prompt === 'string' ? 1 : prompt.length);
  for (const result of results) expect(result, stderr).toMatchObject({ subtype: 'success' });
  return repo.events().slice(before);
}

beforeAll(async () => {
  repo = hostRepo();
  stub = await startModelStub({ adapters: [anthropicMessages()] });
  await claude.prepare(repo, stub);
  const trap = join(repo.home, 'trap');
  mkdirSync(trap);
  trapLog = join(repo.home, 'agent-state-calls.log');
  writeFileSync(join(trap, 'agent-state'), `#!/bin/sh\necho "$@" >> '${trapLog}'\n`);
  chmodSync(join(trap, 'agent-state'), 0o755);
  env = {
    PATH: `${trap}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: repo.home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    ...claude.env(repo, stub),
  };
});
afterAll(async () => {
  await stub?.close();
  repo?.remove();
});

describe('the Claude Agent SDK with agentStateHooks()', () => {
  it('gets the boot prompt in the first request, and records Bash calls as ok and failed', async () => {
    const events = await run('Start the task', [
      { toolCalls: [{ name: 'Bash', input: { command: 'echo hi; exit 3', description: 'fail' } }] },
      { toolCalls: [{ name: 'Bash', input: { command: 'echo fine', description: 'pass' } }] },
      { text: 'ok' },
    ]);
    const first = allText(stub.turns()[0]!.body);
    expect(first).toContain('UserPromptSubmit hook additional context: # agent-state boot');
    expect(first).toContain('`src/storage/**` — frozen interface');
    expect(first).toContain('<agent-status');
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
    expect(events.filter((e) => e.type === 'tool.finished')).toMatchObject([
      { name: 'Bash', ok: false },
      { name: 'Bash', ok: true },
    ]);
    expect(existsSync(trapLog)).toBe(false);
  });

  it('refuses a Forbidden Write: the file stays as it was, and the model reads why', async () => {
    const events = await run('Change the storage layer', [
      {
        toolCalls: [{ name: 'Write', input: { file_path: FORBIDDEN_FILE, content: 'x' }, id: 'w' }],
      },
      { text: 'ok' },
    ]);
    expect(repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
    const result = resultOf('w');
    expect(result.is_error).toBe(true);
    expect(allText(result.content)).toContain(
      'agent-state refused this tool call: src/storage/db.ts',
    );
    expect(events.filter((e) => e.type === 'permission.denied')).toMatchObject([{ tool: 'Write' }]);
    expect(existsSync(trapLog)).toBe(false);
  });

  it('records the file an allowed Write changed', async () => {
    const events = await run('Add a note', [
      {
        toolCalls: [
          { name: 'Write', input: { file_path: join(repo.dir, 'NOTES.md'), content: 'x' } },
        ],
      },
      { text: 'ok' },
    ]);
    expect(repo.read('NOTES.md')).toBe('x');
    expect(events.filter((e) => e.type === 'file.modified')).toMatchObject([
      { path: 'NOTES.md', tool: 'Write' },
    ]);
  });

  it("serves agent-state's tools in-process with agentStateMcpServer()", async () => {
    await run(
      'What is the task?',
      [{ toolCalls: [{ name: 'mcp__agent-state__status', input: {}, id: 'st' }] }, { text: 'ok' }],
      { mcpServers: { 'agent-state': await agentStateMcpServer({ cwd: repo.dir }) } },
    );
    const listed = allText(stub.turns()[0]!.body);
    for (const tool of [
      'boot',
      'status',
      'next',
      'plan_update',
      'done',
      'check',
      'evidence_add',
      'checkpoint',
    ])
      expect(listed).toContain(`mcp__agent-state__${tool}`);
    const result = resultOf('st');
    expect(result.is_error).toBeFalsy();
    expect(allText(result.content)).toContain('Add a greet() function');
    expect(existsSync(trapLog)).toBe(false);
  });

  it('boots once at the first prompt, and again after a compaction (/compact)', async () => {
    const events = await run(
      ['Start the task', 'Go on', '/compact', 'Continue'],
      [
        { text: 'Working on it.' },
        { text: 'Still working.' },
        { text: '<summary>SUMMARY: greet() is half done.</summary>' },
        { text: 'Continuing.' },
      ],
    );
    const turns = stub.turns();
    expect(turns).toHaveLength(4);
    expect(allText(messages(turns[1]).at(-1))).not.toContain('# agent-state boot');
    expect(allText(turns[2]!.body)).toContain('create a detailed summary of the conversation');
    const after = allText(turns[3]!.body);
    expect(after).toContain('SUMMARY: greet() is half done.');
    expect(after).toContain('# agent-state boot');
    expect(events.filter((e) => e.type === 'compaction')).toMatchObject([
      { host: 'claude', trigger: 'manual' },
    ]);
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([
      { source: 'startup' },
      { source: 'compact' },
    ]);
    expect(existsSync(trapLog)).toBe(false);
  });

  it('runs the docs/api.md example as written, against the built package', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    const code = /### Example: Claude Agent SDK\n\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    const app = testdir({ 'example.mjs': code! });
    mkdirSync(join(app, 'node_modules', '@anthropic-ai'), { recursive: true });
    symlinkSync(REPO_ROOT, join(app, 'node_modules', 'agent-state'));
    const sdk = join('node_modules', '@anthropic-ai', 'claude-agent-sdk');
    symlinkSync(join(REPO_ROOT, sdk), join(app, sdk));
    stub.reset([{ text: 'Resuming at the next action.' }]);
    stub.requests.length = 0;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(app, 'example.mjs'), repo.dir],
      { env, timeout: 120_000 },
    );
    expect(stdout).toBe('success Resuming at the next action.\n');
    expect(allText(stub.turns()[0]!.body)).toContain('# agent-state boot');
    expect(allText(stub.turns()[0]!.body)).toContain('mcp__agent-state__status');
    expect(existsSync(trapLog)).toBe(false);
  });

  // The control for every "no agent-state process" above: the trap is what Claude Code runs.
  it("puts the trap first on Claude Code's PATH", async () => {
    await run('Run agent-state', [
      {
        toolCalls: [
          { name: 'Bash', input: { command: 'agent-state --version', description: 'v' } },
        ],
      },
      { text: 'ok' },
    ]);
    expect(readFileSync(trapLog, 'utf8')).toBe('--version\n');
  });
});
