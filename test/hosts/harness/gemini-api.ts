// The Gemini API (POST /v1beta/models/<model>:streamGenerateContent?alt=sse, :generateContent,
// :countTokens) for Gemini CLI: a Reply becomes one candidate with text and functionCall parts
// and a usageMetadata (a large promptTokenCount makes the CLI compress its history). Streamed
// calls are the agent's turns; the unstreamed ones (the compression summary and its check, and
// other utility calls) are answered aside.
import type { ServerResponse } from 'node:http';
import {
  json,
  sse,
  startSse,
  type ProtocolAdapter,
  type Reply,
  type StubRequest,
} from './model-stub.js';

/** A Gemini `Content` as the CLI sends it. */
export interface GeminiContent {
  role?: string;
  parts?: Record<string, unknown>[];
}

/** The Gemini request body (the parts the tests read). */
export interface GeminiRequest {
  contents?: GeminiContent[];
  systemInstruction?: unknown;
  tools?: { functionDeclarations?: { name: string }[] }[];
}

/** The text of the compression summary Gemini CLI asks for (a `<state_snapshot>`). */
export const GEMINI_SNAPSHOT =
  '<state_snapshot>The user asked to add greet(); nothing done yet.</state_snapshot>';

function candidate(reply: Reply) {
  const parts: Record<string, unknown>[] = [];
  if (reply.text !== undefined) parts.push({ text: reply.text });
  for (const call of reply.toolCalls ?? []) {
    const args = typeof call.input === 'string' ? { input: call.input } : call.input;
    parts.push({ functionCall: { name: call.name, args } });
  }
  if (parts.length === 0) parts.push({ text: '' });
  const input = reply.usage?.input ?? 100;
  const output = reply.usage?.output ?? 20;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: input + output,
    },
    modelVersion: 'gemini-stub',
  };
}

/** The Gemini adapter. `aux` answers the unstreamed utility calls (default: a state snapshot). */
export function geminiApi(
  options: { aux?: (request: StubRequest) => Reply } = {},
): ProtocolAdapter {
  return {
    name: 'gemini',
    classify(request) {
      const path = request.path.split('?')[0]!;
      if (!path.includes('/models/')) return null;
      return request.method === 'POST' && path.endsWith(':streamGenerateContent') ? 'turn' : 'aux';
    },
    respond(_request, reply, res) {
      startSse(res);
      sse(res, null, candidate(reply));
      res.end();
    },
    respondAux(request, res: ServerResponse) {
      const path = request.path.split('?')[0]!;
      if (path.endsWith(':countTokens')) return json(res, 200, { totalTokens: 100 });
      if (path.endsWith(':generateContent')) {
        const reply = options.aux?.(request) ?? { text: GEMINI_SNAPSHOT };
        return json(res, 200, candidate(reply));
      }
      if (path.endsWith(':streamGenerateContent')) {
        startSse(res);
        sse(res, null, candidate(options.aux?.(request) ?? { text: GEMINI_SNAPSHOT }));
        return res.end();
      }
      json(res, 404, { error: { message: `model stub: ${path}` } });
    },
  };
}

/** The contents of a recorded Gemini request. */
export function geminiContents(request: StubRequest): GeminiContent[] {
  return (request.body as GeminiRequest | null)?.contents ?? [];
}

/** The names of the tools offered in a recorded Gemini request. */
export function geminiTools(request: StubRequest): string[] {
  return ((request.body as GeminiRequest | null)?.tools ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((f) => f.name),
  );
}
