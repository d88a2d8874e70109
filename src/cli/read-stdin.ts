// Reading stdin whole, as UTF-8: a host hook's payload, `event --stdin`, `evidence add --body -`.
import type { CliIo } from './output.js';

/** All of stdin as text; '' when stdin is a terminal (nobody is piping a payload) unless `fromTty`. */
export async function readStdin(io: CliIo, fromTty = false): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY && !fromTty) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
