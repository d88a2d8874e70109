// Reading stdin whole, as UTF-8: a host hook's payload, `event --stdin`, `evidence add --body -`.
import { readSync } from 'node:fs';
import { isTerminal } from './fd-stream.js';
import type { CliIo } from './output.js';

/** All of stdin as text; '' when stdin is a terminal (nobody is piping a payload) unless `fromTty`. */
export async function readStdin(io: CliIo, fromTty = false): Promise<string> {
  // The process's stdin read from its descriptor: process.stdin would make a net.Socket.
  const chunks: Buffer[] = [];
  if (io.stdin === undefined && !isTerminal(0)) {
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      let n: number;
      try {
        n = readSync(0, chunk);
      } catch (error) {
        // A non-blocking descriptor with nothing in it yet: the stream waits for the rest.
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
        throw error;
      }
      if (n === 0) return Buffer.concat(chunks).toString('utf8');
      chunks.push(chunk.subarray(0, n));
    }
  }
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY && !fromTty) return '';
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
