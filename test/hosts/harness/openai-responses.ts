// The OpenAI Responses API (POST /v1/responses, streamed as SSE) for Codex: a Reply becomes a
// message item and function_call items (custom_tool_call for freeform tools such as Codex's
// apply_patch, whose input is a string), then response.completed with the usage.
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

type Item = Record<string, unknown>;

function items(reply: Reply, ids: IdSource): Item[] {
  const out: Item[] = [];
  if (reply.text !== undefined)
    out.push({
      type: 'message',
      id: ids.next('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  for (const call of reply.toolCalls ?? []) {
    const callId = call.id ?? ids.next('call');
    out.push(
      typeof call.input === 'string'
        ? {
            type: 'custom_tool_call',
            id: ids.next('ctc'),
            call_id: callId,
            name: call.name,
            input: call.input,
            status: 'completed',
          }
        : {
            type: 'function_call',
            id: ids.next('fc'),
            call_id: callId,
            name: call.name,
            ...(call.namespace ? { namespace: call.namespace } : {}),
            arguments: JSON.stringify(call.input),
            status: 'completed',
          },
    );
  }
  for (const raw of reply.rawItems ?? []) out.push({ id: ids.next('item'), ...raw });
  return out;
}

/** The OpenAI Responses adapter. `sideCall` names requests answered aside (not script turns). */
export function openaiResponses(
  options: { sideCall?: (request: StubRequest) => boolean } = {},
): ProtocolAdapter {
  return {
    name: 'openai-responses',
    classify(request) {
      const path = request.path.split('?')[0]!;
      if (request.method === 'POST' && path.endsWith('/responses'))
        return options.sideCall?.(request) ? 'aux' : 'turn';
      if (path.endsWith('/models') || path.includes('/responses/')) return 'aux';
      return null;
    },
    respond(request, reply, res, ids) {
      writeResponse(request, reply, res, ids);
    },
    respondAux(request, res, ids) {
      const path = request.path.split('?')[0]!;
      if (path.endsWith('/models')) return json(res, 200, { object: 'list', data: [], models: [] });
      if (request.method === 'POST' && path.endsWith('/responses'))
        return writeResponse(request, { text: 'Stub.' }, res, ids);
      json(res, 404, { error: { message: `model stub: ${path}` } });
    },
  };
}

function writeResponse(request: StubRequest, reply: Reply, res: ServerResponse, ids: IdSource) {
  const body = (request.body ?? {}) as { model?: string };
  const id = ids.next('resp');
  const output = items(reply, ids);
  const input = reply.usage?.input ?? 100;
  const outputTokens = reply.usage?.output ?? 20;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + outputTokens,
  };
  const base = { id, object: 'response', model: body.model ?? 'gpt-stub', created_at: 0 };
  startSse(res);
  sse(res, 'response.created', {
    type: 'response.created',
    response: { ...base, status: 'in_progress', output: [] },
  });
  output.forEach((item, index) => {
    sse(res, 'response.output_item.added', {
      type: 'response.output_item.added',
      output_index: index,
      item,
    });
    if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0]!.text;
      sse(res, 'response.output_text.delta', {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: index,
        content_index: 0,
        delta: text,
      });
    }
    sse(res, 'response.output_item.done', {
      type: 'response.output_item.done',
      output_index: index,
      item,
    });
  });
  sse(res, 'response.completed', {
    type: 'response.completed',
    response: { ...base, status: 'completed', output, usage },
  });
  res.end();
}
