// What reaches the MCP SDK from stdin: one well-formed JSON-RPC message a line. The SDK drops a
// line it cannot read without a word (an id that is an object, a line that is not JSON), closes
// the connection on one over 10 MB and serves a tools/call before initialize: the client waits
// forever, or a mutation runs before the session exists. Each such line gets its JSON-RPC error
// here, and the server stays up.
import { Transform, type Readable } from 'node:stream';
import {
  INVALID_REQUEST,
  PARSE_ERROR,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';

/** The largest message served: far above any tool's arguments (a state file is at most 1 MiB). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

type Id = string | number | null;
export type Refusal = { id: Id; code: number; message: string };

const isId = (id: unknown) => typeof id === 'string' || Number.isFinite(id);
const refuse = (id: Id, code: number, message: string): Refusal => ({ id, code, message });
// The id of a line too long to parse: the first key (after "jsonrpc") or the last, where clients
// write it; the arguments between may hold an "id" of their own.
const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,256}")`;
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`);
const ID_LAST = new RegExp(String.raw`${ID}\s*\}\s*$`);
const idOf = (head: string, tail: string) =>
  JSON.parse((ID_FIRST.exec(head) ?? ID_LAST.exec(tail))?.[1] ?? 'null') as Id;

// Why a line is not served, or its method. Before `initialize` only a ping, or a request of the
// stateless revision (its protocol version in each request's `_meta`), is.
function check(text: string, initialized: boolean): Refusal | { method: unknown } {
  let m: { id?: unknown; method?: unknown; params?: { _meta?: object } };
  try {
    m = JSON.parse(text) as typeof m;
  } catch {
    return refuse(null, PARSE_ERROR, 'a line that is not JSON');
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m) || ('id' in m && !isId(m.id)))
    return refuse(null, INVALID_REQUEST, 'not one JSON-RPC message with a string or number id');
  const early = !initialized && !['initialize', 'ping'].includes(String(m.method));
  if (early && 'id' in m && !(PROTOCOL_VERSION_META_KEY in (m.params?._meta ?? {})))
    return refuse(
      m.id as Id,
      INVALID_REQUEST,
      `${String(m.method)} before initialize: initialize first`,
    );
  return { method: m.method };
}

/** `input` with only servable lines in it; every other line is answered through `reply`. */
export function guardStdin(input: Readable, reply: (refusal: Refusal) => void): Readable {
  let line = Buffer.alloc(0);
  let size = 0; // of the whole line; past the limit only its first and last bytes are kept
  let head = '';
  let initialized = false;
  const take = (piece: Buffer) => {
    if (size === 0) head = piece.subarray(0, 512).toString('utf8');
    size += piece.length;
    line = Buffer.concat([line, piece]);
    if (size > MAX_MESSAGE_BYTES) line = line.subarray(-512);
  };
  const end = (push: (text: string) => void) => {
    const text = line.toString('utf8').replace(/\r$/, '');
    const over = size > MAX_MESSAGE_BYTES;
    [line, size] = [Buffer.alloc(0), 0];
    if (!over && text.trim() === '') return;
    const checked = over
      ? refuse(
          idOf(head, text),
          INVALID_REQUEST,
          `message over ${MAX_MESSAGE_BYTES >> 20} MiB: refused`,
        )
      : check(text, initialized);
    if ('code' in checked) return reply(checked);
    initialized ||= checked.method === 'initialize';
    push(`${text}\n`);
  };
  return input.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        let start = 0;
        for (let nl = chunk.indexOf(10); nl !== -1; start = nl + 1, nl = chunk.indexOf(10, start)) {
          take(chunk.subarray(start, nl));
          end((text) => this.push(text));
        }
        take(chunk.subarray(start));
        done();
      },
    }),
  );
}
