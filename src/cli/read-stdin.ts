// Reading a hook payload from stdin (the whole stream, as UTF-8).

/** All of stdin as text; '' when stdin is a terminal (nobody is piping a payload). */
export async function readStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
