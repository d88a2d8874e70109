// The CLI's first module, bundled as CommonJS (dist/bundle/entry.cjs) so that a command loads no
// ES module loader unless it needs one (~5 ms). `event` runs after every tool call of an agent
// (from host hooks), so it takes a fast path that loads neither commander, chalk nor YAML; git
// hooks (`hook`) and hosts' boots have fast paths too; everything else, and `--help`, goes to the
// full program in main.ts. Each is its own self-contained bundle, compiled from a V8 code cache
// (load-cached.ts); the host hooks' bundle is ES modules, imported by a computed specifier that
// the bundler leaves alone.
import { settleColorEnv } from './color-env.js';
import { commandOf } from './command-word.js';
import { loadBundle, runMainBundle } from './load-cached.js';
import { prefetch } from './prefetch.js';
import type { runBootCli as RunBootCli } from './boot-cli.js';
import type { runEventCli as RunEventCli } from './event-cli.js';
import type { hookMain as HookMain } from './hook-entry.js';
import { isHostHookCall } from './hook-route.js';
import { reportError } from './report-error.js';

// Before anything loads Node's color code (Node 22 warns there) or spawns a child.
settleColorEnv(process.env);

// `agent-state ... | head` closes the pipe early: a reader that went away is not an error of
// ours, so drop what is left to write instead of crashing with EPIPE. Every path goes through here.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// `hook claude|codex|gemini|opencode` and `statusline` run after every tool call and message of an
// agent host: they have their own bundle (dist/bundle/hook/), whose hot path loads no commander,
// chalk or YAML.
const FAST_HOST_HOOK = './hook/hook-main.js';
const argv = process.argv.slice(2);

async function main(): Promise<void> {
  const { command, help } = commandOf(argv);
  if (command === 'event' && !help) {
    const { runEventCli } = loadBundle('event-cli') as { runEventCli: typeof RunEventCli };
    process.exitCode = await runEventCli(argv);
  } else if (isHostHookCall(argv)) {
    await import(FAST_HOST_HOOK);
  } else if (command === 'hook' && !help) {
    // `hook` runs from git hooks on every commit: the same kind of fast path (hook-entry.ts).
    const { hookMain } = loadBundle('hook-entry') as { hookMain: typeof HookMain };
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
}

// Each path reports its own errors; this only catches a bundle that fails to load.
main().catch((error: unknown) => {
  process.exitCode = reportError(argv.includes('--json'), error);
});
