// The fast entry for the hot paths that hosts run after every tool call or message:
// `agent-state hook <host>` and `agent-state statusline`. entry.ts routes them here (see
// hook-route.ts) so they skip building the whole commander program.
import type { HostName } from '../integrations/host-hook/hook-event.js';
import { readStdin } from './read-stdin.js';

async function run(argv: readonly string[]): Promise<void> {
  const input = await readStdin();
  if (argv[0] === 'statusline') {
    const { runStatusline } = await import('../integrations/statusline.js');
    process.stdout.write(await runStatusline(input, { cwd: process.cwd(), env: process.env }));
    return;
  }
  const { runHostHook } = await import('../integrations/host-hook/run-host-hook.js');
  const result = await runHostHook(argv[1] as HostName, input, { cwd: process.cwd() });
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
}

await run(process.argv.slice(2));
process.exitCode = 0;
