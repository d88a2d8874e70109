// The Anthropic Messages API (POST /v1/messages, streamed as SSE or not) for Claude Code: a
// Reply becomes text and tool_use content blocks; token counts and other side calls are answered
// without consuming the script.
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

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocks(reply: Reply, ids: IdSource): Block[] {
  const out: Block[] = [];
  if (reply.text !== undefined) out.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) {
    const input = typeof call.input === 'string' ? { input: call.input } : call.input;
    out.push({ type: 'tool_use', id: call.id ?? ids.next('toolu'), name: call.name, input });
  }
  if (out.length === 0) out.push({ type: 'text', text: '' });
  return out;
}

function model(request: StubRequest): string {
  const body = request.body as { model?: unknown } | null;
  return typeof body?.model === 'string' ? body.model : 'claude-stub';
}

/** Whether a Messages request asks for a stream. */
function streamed(request: StubRequest): boolean {
  return (request.body as { stream?: unknown } | null)?.stream === true;
}

/** The Anthropic Messages adapter. `sideCall` names requests answered aside (not script turns). */
export function anthropicMessages(
  options: { sideCall?: (request: StubRequest) => boolean } = {},
): ProtocolAdapter {
  return {
    name: 'anthropic-messages',
    classify(request) {
      const path = request.path.split('?')[0]!;
      if (request.method === 'POST' && path === '/v1/messages') {
        return options.sideCall?.(request) ? 'aux' : 'turn';
      }
      if (path.startsWith('/v1/') || path.startsWith('/api/')) return 'aux';
      return null;
    },
    respond(request, reply, res, ids) {
      writeMessage(request, reply, res, ids);
    },
    respondAux(request, res, ids) {
      const path = request.path.split('?')[0]!;
      if (path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 1000 });
      if (path === '/v1/messages') return writeMessage(request, { text: 'Stub.' }, res, ids);
      if (path === '/v1/models') return json(res, 200, { data: [], has_more: false });
      json(res, 404, { type: 'error', error: { type: 'not_found_error', message: path } });
    },
  };
}

function writeMessage(request: StubRequest, reply: Reply, res: ServerResponse, ids: IdSource) {
  const content = blocks(reply, ids);
  const stopReason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: reply.usage?.input ?? 100,
    output_tokens: reply.usage?.output ?? 20,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const id = ids.next('msg');
  if (!streamed(request)) {
    return json(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model: model(request),
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
  }
  startSse(res);
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: model(request),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}
