// The OpenAI chat completions API (POST /v1/chat/completions, streamed as SSE chunks) for
// OpenCode's `@ai-sdk/openai-compatible` provider: a Reply becomes a content delta and tool_calls
// deltas, then a finish chunk with the usage (a large prompt count makes OpenCode compact).
// Requests without tools (OpenCode's title generator and its compaction summarizer) are answered
// aside, so the script holds only the agent's own turns.
import type { ServerResponse } from 'node:http';
import {
  json,
  sse,
  startSse,
  type IdSource,
  type ProtocolAdapter,
  type Reply,
  type StubRequest,
} from './model-stub.js';

/** A chat completions message as OpenCode sends it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The request body (the parts the tests read). */
export interface ChatRequest {
  model?: string;
  messages?: ChatMessage[];
  tools?: { function: { name: string } }[];
}

/** What the compaction summarizer answers (OpenCode keeps it as the session's summary). */
export const CHAT_SUMMARY =
  '## Summary\nThe user asked to add greet() to src/app.ts. Nothing is done yet.';

/** The messages of a recorded request. */
export function chatMessages(request: StubRequest): ChatMessage[] {
  return (request.body as ChatRequest | null)?.messages ?? [];
}

/** The names of the tools offered in a recorded request. */
export function chatTools(request: StubRequest): string[] {
  return ((request.body as ChatRequest | null)?.tools ?? []).map((t) => t.function.name);
}

/** The system prompt of a recorded request (every system message, joined). */
export function chatSystem(request: StubRequest): string {
  return chatMessages(request)
    .filter((m) => m.role === 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

/** Whether a request is OpenCode's title generator (no tools, its own system prompt). */
export function isTitleRequest(request: StubRequest): boolean {
  return chatSystem(request).startsWith('You are a title generator');
}

/** The chat completions adapter. `aux` answers the requests without tools. */
export function openaiChat(
  options: { aux?: (request: StubRequest) => Reply } = {},
): ProtocolAdapter {
  return {
    name: 'openai-chat',
    classify(request) {
      const path = request.path.split('?')[0]!;
      if (request.method === 'POST' && path.endsWith('/chat/completions'))
        return ((request.body as ChatRequest | null)?.tools ?? []).length > 0 ? 'turn' : 'aux';
      if (path.endsWith('/models')) return 'aux';
      return null;
    },
    respond(request, reply, res, ids) {
      writeChunks(request, reply, res, ids);
    },
    respondAux(request, res, ids) {
      const path = request.path.split('?')[0]!;
      if (path.endsWith('/models')) return json(res, 200, { object: 'list', data: [] });
      const reply = options.aux?.(request) ?? {
        text: isTitleRequest(request) ? 'Add a greeting' : CHAT_SUMMARY,
      };
      writeChunks(request, reply, res, ids);
    },
  };
}

function writeChunks(request: StubRequest, reply: Reply, res: ServerResponse, ids: IdSource) {
  const id = ids.next('chatcmpl');
  const model = (request.body as ChatRequest | null)?.model ?? 'gpt-stub';
  const base = { id, object: 'chat.completion.chunk', created: 0, model };
  const input = reply.usage?.input ?? 100;
  const output = reply.usage?.output ?? 20;
  startSse(res);
  if (reply.text !== undefined)
    sse(res, null, {
      ...base,
      choices: [
        { index: 0, delta: { role: 'assistant', content: reply.text }, finish_reason: null },
      ],
    });
  (reply.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
    sse(res, null, {
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            role: 'assistant',
            tool_calls: [
              {
                index,
                id: call.id ?? ids.next('call'),
                type: 'function',
                function: { name: call.name, arguments: args },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
  });
  sse(res, null, {
    ...base,
    choices: [
      { index: 0, delta: {}, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop' },
    ],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  });
  res.write('data: [DONE]\n\n');
  res.end();
}
