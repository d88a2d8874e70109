// agent-state/ai-sdk with the real `ai` 7 (which declares Node >= 22: this tier runs on the Node
// 22 and 24 runs of .ci/run) and its own mock model, MockLanguageModelV4, on real state
// directories: what the model is sent, which tool calls run, and what the event log records.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, isStepCount, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentStateMiddleware, withAgentState } from '../../src/api/ai-sdk.js';
import { initState } from '../../src/state/init.js';
import { REPO_ROOT, gitdir, testdir, writeFiles } from '../helpers/fixtures.js';

const GOALS = `# Greeting

Add a greet() function to src/app.ts.

## Forbidden

- \`src/storage/**\` — frozen interface
`;

function taskRepo(): string {
  const dir = gitdir({ 'src/app.ts': 'export {};\n', 'src/storage/db.ts': 'frozen\n' });
  initState({ cwd: dir, goal: 'Add a greet() function to src/app.ts.' });
  writeFiles(dir, { '.agent/state/goals.md': GOALS });
  return dir;
}

function events(dir: string): Record<string, unknown>[] {
  const file = join(dir, '.agent', 'log', 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model turn that calls tools: [name, input] pairs. */
function calls(...list: [string, unknown][]) {
  return {
    content: list.map(([toolName, input], i) => ({
      type: 'tool-call' as const,
      toolCallId: `call-${toolName}-${i}`,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage,
    warnings: [],
  };
}

const done = {
  content: [{ type: 'text' as const, text: 'Done.' }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
};

/** Runs a generateText agent with both adapters; `turns` are the mock model's answers. */
async function agent(dir: string, turns: ReturnType<typeof calls>[], fail = false) {
  const written: string[] = [];
  const mock = new MockLanguageModelV4({ doGenerate: [...turns, done] });
  const tools = withAgentState(
    {
      writeFile: tool({
        description: 'Write a file',
        inputSchema: z.object({ path: z.string(), content: z.string() }),
        execute: async ({ path, content }) => {
          if (fail) throw new Error(`disk full while writing ${path}`);
          written.push(path);
          writeFileSync(join(dir, path), content);
          return 'written';
        },
      }),
      listFiles: tool({
        description: 'List the files',
        inputSchema: z.object({}),
        async *execute() {
          yield 'src/';
          yield 'src/app.ts';
        },
      }),
    },
    { cwd: dir },
  );
  const result = await generateText({
    model: wrapLanguageModel({ model: mock, middleware: agentStateMiddleware({ cwd: dir }) }),
    tools,
    system: 'You are a careful coder.',
    prompt: 'Add greet()',
    stopWhen: isStepCount(turns.length + 1),
  });
  return { mock, result, written };
}

const systemOf = (prompt: { role: string; content: unknown }[]) =>
  prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');

describe('agentStateMiddleware()', () => {
  it("puts the boot prompt, goal and Forbidden rule included, in the first call's system prompt", async () => {
    const dir = taskRepo();
    const { mock } = await agent(dir, []);
    const first = mock.doGenerateCalls[0]!.prompt;
    expect(first[0]!.role).toBe('system');
    const system = systemOf(first);
    expect(system).toContain('# agent-state boot');
    expect(system).toContain('Add a greet() function to src/app.ts.');
    expect(system).toContain('`src/storage/**` — frozen interface');
    expect(system).toContain('You are a careful coder.');
    expect(events(dir).filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
  });

  it('tells the status changes after tool results, and the same again in every later call', async () => {
    const dir = taskRepo();
    const { mock } = await agent(dir, [
      calls(['listFiles', {}]),
      calls([
        'writeFile',
        { path: 'src/app.ts', content: 'export const greet = () => "hello";\n' },
      ]),
    ]);
    const [first, second, third] = mock.doGenerateCalls.map((c) => c.prompt);
    expect(systemOf(second!)).toBe(systemOf(first!));
    // After the tool message: the status delta, as a user message.
    const told = second!.at(-1)!;
    expect(second!.at(-2)!.role).toBe('tool');
    expect(told.role).toBe('user');
    expect(JSON.stringify(told)).toContain('kind=\\"delta\\"');
    expect(JSON.stringify(told)).toContain('<tool name=\\"listFiles\\" calls=\\"1\\"/>');
    // The next call sends that history unchanged, then what changed since.
    expect(third!.slice(0, second!.length)).toEqual(second);
    expect(third!.at(-2)!.role).toBe('tool');
    expect(JSON.stringify(third!.at(-1))).toContain('<tool name=\\"writeFile\\" calls=\\"1\\"/>');
  });
});

describe('withAgentState()', () => {
  it('refuses a call on a Forbidden path: execute does not run, the model reads why', async () => {
    const dir = taskRepo();
    const { mock, written } = await agent(dir, [
      calls(['writeFile', { path: 'src/storage/db.ts', content: 'thawed\n' }]),
    ]);
    expect(written).toEqual([]);
    expect(readFileSync(join(dir, 'src/storage/db.ts'), 'utf8')).toBe('frozen\n');
    const sent = mock.doGenerateCalls[1]!.prompt.find((m) => m.role === 'tool');
    expect(JSON.stringify(sent)).toContain(
      'agent-state refused this tool call: src/storage/db.ts is Forbidden',
    );
    expect(events(dir).filter((e) => String(e.type).startsWith('tool.'))).toEqual([]);
    expect(events(dir).filter((e) => e.type === 'permission.denied')).toMatchObject([
      { tool: 'writeFile' },
    ]);
  });

  it('records allowed calls, a streaming one included, as tool.started and tool.finished ok', async () => {
    const dir = taskRepo();
    const { written, result } = await agent(dir, [
      calls(['listFiles', {}], ['writeFile', { path: 'src/app.ts', content: 'x\n' }]),
    ]);
    expect(written).toEqual(['src/app.ts']);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual(['src/app.ts', 'written']);
    const tools = events(dir).filter((e) => String(e.type).startsWith('tool.'));
    expect(tools.map((e) => [e.type, e.name, e.ok])).toEqual(
      expect.arrayContaining([
        ['tool.started', 'listFiles', undefined],
        ['tool.finished', 'listFiles', true],
        ['tool.started', 'writeFile', undefined],
        ['tool.finished', 'writeFile', true],
      ]),
    );
    expect(tools).toHaveLength(4);
  });

  it('records a call that throws as tool.finished not ok, with the error', async () => {
    const dir = taskRepo();
    const { result } = await agent(
      dir,
      [calls(['writeFile', { path: 'src/app.ts', content: 'x' }])],
      true,
    );
    expect(result.steps[0]!.content.filter((p) => p.type === 'tool-error')).toHaveLength(1);
    const log = events(dir);
    expect(log.filter((e) => e.type === 'tool.finished')).toMatchObject([
      { name: 'writeFile', ok: false },
    ]);
    expect(log.filter((e) => e.type === 'error')).toMatchObject([
      { tool: 'writeFile', message: 'disk full while writing src/app.ts' },
    ]);
  });

  it("checks the paths options.paths names, and refuses any when goals.md can't be read", async () => {
    const dir = taskRepo();
    let ran = 0;
    const tools = withAgentState(
      {
        copy: tool({
          inputSchema: z.object({ from: z.string(), to: z.string() }),
          execute: async () => ++ran,
        }),
      },
      { cwd: dir, paths: (name, input) => (name === 'copy' ? [(input as { to: string }).to] : []) },
    );
    const options = { toolCallId: 'c1', messages: [] as ModelMessage[], context: {} };
    await expect(
      tools.copy.execute!({ from: 'src/app.ts', to: 'src/storage/x.ts' }, options),
    ).rejects.toThrow('src/storage/x.ts is Forbidden');
    expect(await tools.copy.execute!({ from: 'src/storage/db.ts', to: 'b.ts' }, options)).toBe(1);
    rmSync(join(dir, '.agent/state/goals.md'));
    mkdirSync(join(dir, '.agent/state/goals.md'));
    await expect(tools.copy.execute!({ from: 'a', to: 'c.ts' }, options)).rejects.toThrow(
      'the Forbidden rules could not be read',
    );
    expect(ran).toBe(1);
  });
});

describe('docs/api.md', () => {
  it('runs the AI SDK example as written, against the built package', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    const code = /### Example: AI SDK\n\n[^`]*```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    const app = testdir({ 'example.mjs': code! });
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(REPO_ROOT, join(app, 'node_modules', 'agent-state'));
    for (const name of ['ai', 'zod'])
      symlinkSync(join(REPO_ROOT, 'node_modules', name), join(app, 'node_modules', name));
    const dir = gitdir({ 'src/storage/db.js': 'export const db = new Map();\n' });
    initState({ cwd: dir, goal: 'Add pagination to GET /todos' });
    writeFiles(dir, { '.agent/state/goals.md': GOALS.replace('db.ts', 'db.js') });
    const out = execFileSync(process.execPath, [join(app, 'example.mjs'), dir], {
      encoding: 'utf8',
    });
    expect(out).toBe(
      'agent-state refused this tool call: src/storage/db.js is Forbidden\nAsking the user.\n',
    );
    expect(readFileSync(join(dir, 'src/storage/db.js'), 'utf8')).toBe(
      'export const db = new Map();\n',
    );
  });
});
