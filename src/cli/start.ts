// What bin/agent-state.js runs: loads dist/bundle/agent-state.cjs through the V8 code cache
// (code-cache.ts) and runs the call; node_modules get Node's compile cache where it has one (≥ 22.1).
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { cacheFamily, loadCached } from './code-cache.js';
import { HOT_WORDS } from './hot-words.js';
import { settleColorEnv } from './color-env.js';

// Before anything loads Node's color code (Node 22 warns there) or spawns a child.
settleColorEnv(process.env);

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type RunCli = (argv: readonly string[]) => Promise<number>;
const argv = process.argv.slice(2);
// `event`, `hook` and `boot` each from its hot bundle (run-hot.ts), unless the call asks for help
// or the version: the whole CLI answers those, and anything else.
const family = cacheFamily(argv);
const hot =
  (HOT_WORDS as readonly string[]).includes(family) &&
  !argv.some((arg) => /^(?:-h|--help|-V|--version)$/.test(arg));
try {
  const bundle = join(__dirname, hot ? `agent-state-${family}.cjs` : 'agent-state.cjs');
  const { runCli } = loadCached(bundle) as { runCli: RunCli };
  void runCli(argv).then((code) => {
    process.exitCode = code;
  });
} catch (error) {
  // Only a broken installation gets here (the bundle reports everything else itself).
  process.stderr.write(
    `agent-state: cannot load the CLI bundle: ${(error as Error).message} (fix: reinstall agent-state)\n`,
  );
  process.exitCode = 70;
}
