// The CLI's first module. `event` runs after every tool call of an agent (from host hooks), so it
// takes a fast path that loads neither commander, chalk nor YAML; everything else, and `event
// --help`, goes to the full program in main.ts. The specifier of the fast path is computed so that
// the bundler leaves it alone: scripts/build.mjs builds event-cli.js as one file of its own (one
// module to load instead of a dozen chunks: ~10 ms less per call).
import { commandOf } from './command-word.js';
import type { runEventCli as RunEventCli } from './event-cli.js';

const FAST_EVENT = './event-cli.js';
const argv = process.argv.slice(2);
const { command, help } = commandOf(argv);
if (command === 'event' && !help) {
  const { runEventCli } = (await import(FAST_EVENT)) as { runEventCli: typeof RunEventCli };
  process.exitCode = await runEventCli(argv);
} else {
  await import('./main.js');
}
