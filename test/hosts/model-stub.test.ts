// The stub itself: it plays its script in order, records what it was sent, and speaks each
// protocol's stream format (checked here with plain fetch; the host tests check it with the hosts).
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicMessages } from './harness/anthropic-messages.js';
import { GEMINI_SNAPSHOT, geminiApi } from './harness/gemini-api.js';
import { startModelStub, type ModelStub } from './harness/model-stub.js';
import { CHAT_SUMMARY, openaiChat } from './harness/openai-chat.js';
import { openaiResponses } from './harness/openai-responses.js';

let stub: ModelStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function post(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.text();
}

function events(text: string): { event?: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.includes('data: '))
    .map((chunk) => {
      const event = /^event: (.+)$/m.exec(chunk)?.[1];
      const data = JSON.parse(/^data: (.+)$/m.exec(chunk)![1]!) as Record<string, unknown>;
      return event ? { event, data } : { data };
    });
}

describe('model stub', () => {
  it('plays the script in order, then the fallback, and records every request', async () => {
    stub = await startModelStub({
      adapters: [anthropicMessages()],
      script: [{ text: 'first' }, { toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] }],
    });
    const one = await post(`${stub.url}/v1/messages`, { model: 'm', stream: false, messages: [] });
    const two = await post(`${stub.url}/v1/messages`, { model: 'm', stream: true, messages: [1] });
    const three = await post(`${stub.url}/v1/messages`, { model: 'm', stream: false });
    await post(`${stub.url}/v1/messages/count_tokens`, { model: 'm' });
    expect(JSON.parse(one).content).toEqual([{ type: 'text', text: 'first' }]);
    const stream = events(two);
    expect(stream.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(stream[1]!.data.content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(stream[2]!.data.delta).toEqual({
      type: 'input_json_delta',
      partial_json: '{"command":"ls"}',
    });
    expect(JSON.parse(three).content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(stub.requests.map((r) => r.kind)).toEqual(['turn', 'turn', 'turn', 'aux']);
    expect(stub.turns()[1]!.body).toEqual({ model: 'm', stream: true, messages: [1] });
  });

  it('answers a computed reply, and an HTTP error when the script says so', async () => {
    stub = await startModelStub({
      adapters: [openaiResponses()],
      script: [
        (request) => ({ text: `saw ${(request.body as { input: string }).input}` }),
        { error: { status: 429, body: '{"error":{"message":"slow down"}}' } },
      ],
    });
    const one = events(await post(`${stub.url}/v1/responses`, { model: 'm', input: 'hello' }));
    expect(one.at(-1)!.event).toBe('response.completed');
    const done = one.find((e) => e.event === 'response.output_item.done')!;
    expect(done.data.item).toMatchObject({ type: 'message', content: [{ text: 'saw hello' }] });
    const res = await fetch(`${stub.url}/v1/responses`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(429);
  });

  it('writes function calls, and freeform tool calls for string input', async () => {
    stub = await startModelStub({
      adapters: [openaiResponses()],
      script: [
        {
          toolCalls: [
            { name: 'exec_command', input: { cmd: 'ls' } },
            { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
          ],
          usage: { input: 5000 },
        },
      ],
    });
    const stream = events(await post(`${stub.url}/v1/responses`, { model: 'm' }));
    const items = stream
      .filter((e) => e.event === 'response.output_item.done')
      .map((e) => e.data.item as Record<string, unknown>);
    expect(items.map((i) => i.type)).toEqual(['function_call', 'custom_tool_call']);
    expect(items[0]!.arguments).toBe('{"cmd":"ls"}');
    expect(items[1]!.input).toBe('*** Begin Patch\n*** End Patch\n');
    const completed = stream.at(-1)!.data.response as { usage: { input_tokens: number } };
    expect(completed.usage.input_tokens).toBe(5000);
  });

  it('Gemini: streamed calls are turns (text and functionCall parts, usage), the rest aside', async () => {
    stub = await startModelStub({
      adapters: [geminiApi()],
      script: [
        {
          toolCalls: [{ name: 'run_shell_command', input: { command: 'ls' } }],
          usage: { input: 600_000 },
        },
      ],
    });
    const base = `${stub.url}/v1beta/models/gemini-2.5-flash`;
    const turn = events(await post(`${base}:streamGenerateContent?alt=sse`, { contents: [] }));
    expect(turn).toHaveLength(1);
    expect(turn[0]!.data).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 600_000 },
    });
    const summary = JSON.parse(await post(`${base}:generateContent`, { contents: [] })) as {
      candidates: { content: { parts: { text: string }[] } }[];
    };
    expect(summary.candidates[0]!.content.parts[0]!.text).toBe(GEMINI_SNAPSHOT);
    expect(JSON.parse(await post(`${base}:countTokens`, {}))).toEqual({ totalTokens: 100 });
    expect(stub.requests.map((r) => r.kind)).toEqual(['turn', 'aux', 'aux']);
  });

  it('chat completions: requests with tools are turns (content, tool_calls, usage), the others aside', async () => {
    stub = await startModelStub({
      adapters: [openaiChat()],
      script: [{ text: 'hi', toolCalls: [{ name: 'bash', input: { command: 'ls' }, id: 'c1' }] }],
    });
    const url = `${stub.url}/v1/chat/completions`;
    const tools = [{ type: 'function', function: { name: 'bash' } }];
    const turn = (await post(url, { model: 'gpt-x', messages: [], tools, stream: true }))
      .split('\n\n')
      .filter(Boolean);
    expect(turn.at(-1)).toBe('data: [DONE]');
    const chunks = turn.slice(0, -1).map((c) => JSON.parse(c.slice(6)) as Record<string, unknown>);
    expect(chunks.map((c) => (c.choices as { delta: unknown }[])[0]!.delta)).toEqual([
      { role: 'assistant', content: 'hi' },
      {
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            id: 'c1',
            type: 'function',
            function: { name: 'bash', arguments: '{"command":"ls"}' },
          },
        ],
      },
      {},
    ]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 100 },
    });
    const aside = await post(url, {
      model: 'gpt-x',
      messages: [{ role: 'system', content: 'summarize' }],
      stream: true,
    });
    expect(aside).toContain(JSON.stringify(CHAT_SUMMARY).slice(1, 20));
    expect(stub.requests.map((r) => r.kind)).toEqual(['turn', 'aux']);
  });
});
