// The CLI's first module. `event` runs after every tool call of an agent (from host hooks), so it
// takes a fast path that loads neither commander, chalk nor YAML; everything else, and `event
// --help`, goes to the full program in main.ts (host and git hooks have fast paths too, below).
// The specifiers are computed so that the bundler leaves them alone: scripts/build.mjs bundles entry.js, main.cjs and event-cli.js separately (one
// module to load for `event` instead of a dozen shared chunks: ~10 ms less per call).
import { commandOf } from './command-word.js';
import { loadBundle, runMainBundle } from './load-cached.js';
import { prefetch } from './prefetch.js';
import type { runBootCli as RunBootCli } from './boot-cli.js';
import type { runEventCli as RunEventCli } from './event-cli.js';
import type { hookMain as HookMain } from './hook-entry.js';
import { isHostHookCall } from './hook-route.js';

// `agent-state ... | head` closes the pipe early: a reader that went away is not an error of
// ours, so drop what is left to write instead of crashing with EPIPE. Every path goes through here.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const FAST_EVENT = './event-cli.js';
// `hook claude|codex|gemini|opencode` and `statusline` run after every tool call and message of an
// agent host: they have their own bundle (dist/bundle/hook/), whose hot path loads no commander,
// chalk or YAML.
const FAST_HOST_HOOK = './hook/hook-main.js';
const FAST_HOOK = './hook-entry.js';
const argv = process.argv.slice(2);
const { command, help } = commandOf(argv);
if (command === 'event' && !help) {
  const { runEventCli } = (await import(FAST_EVENT)) as { runEventCli: typeof RunEventCli };
  process.exitCode = await runEventCli(argv);
} else if (isHostHookCall(argv)) {
  await import(FAST_HOST_HOOK);
} else if (command === 'hook' && !help) {
  // `hook` runs from git hooks on every commit: the same kind of fast path (hook-entry.ts).
  const { hookMain } = (await import(FAST_HOOK)) as { hookMain: typeof HookMain };
  const code = await hookMain(argv);
  if (code !== null) process.exitCode = code;
} else if (command === 'boot' && !help) {
  // Hosts boot the agent at every session start and compaction: no commander, no chalk.
  prefetch(argv); // drift (auto, level 3): git starts working while boot-cli.cjs loads
  const { runBootCli } = loadBundle('boot-cli') as { runBootCli: typeof RunBootCli };
  process.exitCode = await runBootCli(argv);
} else {
  prefetch(argv); // verify and fingerprint: git starts working while main.cjs loads
  runMainBundle();
}
