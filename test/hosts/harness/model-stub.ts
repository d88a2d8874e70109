// A recording model stub on 127.0.0.1 (random port) that plays a script of replies, one per model
// turn, and records every request, so a conformance test asserts on what the model was sent.
// Host-neutral: a ProtocolAdapter (Anthropic Messages, OpenAI Responses, Gemini, chat
// completions) says which requests are model turns and writes a Reply in its wire format.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request the stub received (body parsed as JSON when it is JSON). */
export interface StubRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The raw body text. */
  raw: string;
  /** Which adapter claimed it, and as what. */
  protocol: string;
  kind: 'turn' | 'aux' | 'unknown';
  /** For turns: the index of the script entry that answered it. */
  turn?: number;
}

/** A tool call the model makes. `id` defaults to a generated one. */
export interface ToolCall {
  name: string;
  /** The tool's namespace, for protocols that group tools (Codex's MCP tools: `mcp__server__`). */
  namespace?: string;
  input: Record<string, unknown> | string;
  id?: string;
}

/** What the model answers in one turn, host-neutral. */
export interface Reply {
  text?: string;
  toolCalls?: ToolCall[];
  /** Token usage to report (a large input count makes a host compact). */
  usage?: { input?: number; output?: number };
  /** Items in the protocol's own shape, written after the others (e.g. a Responses tool_search_call). */
  rawItems?: Record<string, unknown>[];
  /** An HTTP error instead of a reply (status, body text). */
  error?: { status: number; body: string };
  /** How long the model "thinks" before it answers, in ms (a real model is never instant). */
  delayMs?: number;
}

/** One script entry: a fixed reply, or one computed from the request (and the turn index). */
export type ScriptEntry = Reply | ((request: StubRequest, turn: number) => Reply);

/** A model API wire format. */
export interface ProtocolAdapter {
  name: string;
  /** 'turn' for a model call that consumes the script, 'aux' for anything answered aside, null if not ours. */
  classify(request: StubRequest): 'turn' | 'aux' | null;
  /** Writes the reply for a turn in this protocol. */
  respond(request: StubRequest, reply: Reply, res: ServerResponse, ids: IdSource): void;
  /** Answers an auxiliary request (model lists, token counts, ...). */
  respondAux(request: StubRequest, res: ServerResponse, ids: IdSource): void;
}

/** Unique ids for the replies of one stub. */
export interface IdSource {
  next(prefix: string): string;
}

export interface ModelStubOptions {
  adapters: ProtocolAdapter[];
  /** The replies, in order; turns past the end get `fallback`. */
  script?: ScriptEntry[];
  /** The reply once the script is played out (default: a short final text). */
  fallback?: ScriptEntry;
}

/** The running stub: its base URL, what it recorded, and a way to stop it. */
export interface ModelStub {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: StubRequest[];
  /** The model turns only. */
  turns(): StubRequest[];
  /** Appends entries to the script. */
  play(...entries: ScriptEntry[]): void;
  /** Replaces the script (and starts its index over). */
  reset(entries?: ScriptEntry[]): void;
  close(): Promise<void>;
}

/** The reply a stub gives once its script is played out. */
export const DONE: Reply = { text: 'Done.' };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Starts a stub on 127.0.0.1 with a random port. */
export async function startModelStub(options: ModelStubOptions): Promise<ModelStub> {
  let script = [...(options.script ?? [])];
  let played = 0;
  let counter = 0;
  const ids: IdSource = {
    next: (prefix) => `${prefix}_${(++counter).toString().padStart(6, '0')}`,
  };
  const requests: StubRequest[] = [];
  const fallback = options.fallback ?? DONE;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const request: StubRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: parseBody(raw),
      raw,
      protocol: 'none',
      kind: 'unknown',
    };
    requests.push(request);
    for (const adapter of options.adapters) {
      const kind = adapter.classify(request);
      if (!kind) continue;
      request.protocol = adapter.name;
      request.kind = kind;
      if (kind === 'aux') return adapter.respondAux(request, res, ids);
      const turn = played++;
      request.turn = turn;
      const entry = script[turn] ?? fallback;
      const reply = typeof entry === 'function' ? entry(request, turn) : entry;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.error) {
        res.writeHead(reply.error.status, { 'content-type': 'application/json' });
        return res.end(reply.error.body);
      }
      return adapter.respond(request, reply, res, ids);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `model stub: no adapter for ${request.path}` } }));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`model stub: ${error instanceof Error ? error.stack : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turns: () => requests.filter((r) => r.kind === 'turn'),
    play: (...entries) => void script.push(...entries),
    reset: (entries = []) => {
      script = [...entries];
      played = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes one server-sent event. */
export function sse(res: ServerResponse, event: string | null, data: unknown): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

/** Starts an SSE response. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** Writes a JSON response. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Every string anywhere inside a JSON value, joined (to search a request for text). */
export function allText(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return out.join('\n');
}
