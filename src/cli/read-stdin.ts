// Reading stdin whole, as UTF-8: a host hook's payload, `event --stdin`, `evidence add --body -`.
import { readFileSync } from 'node:fs';
import { isTerminal } from './fd-stream.js';
import type { CliIo } from './output.js';

/** All of stdin as text; '' when stdin is a terminal (nobody is piping a payload) unless `fromTty`. */
export async function readStdin(io: CliIo, fromTty = false): Promise<string> {
  // The process's stdin read from its descriptor: process.stdin would load the stream modules.
  if (io.stdin === undefined && !isTerminal(0)) {
    try {
      return readFileSync(0, 'utf8');
    } catch (error) {
      // A non-blocking descriptor with nothing in it yet: the stream waits for it.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY && !fromTty) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
