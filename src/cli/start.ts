// What bin/agent-state.js runs: loads dist/bundle/agent-state.cjs through the V8 code cache
// (code-cache.ts) and runs the call; node_modules get Node's compile cache where it has one (≥ 22.1).
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { loadCached } from './code-cache.js';
import { settleColorEnv } from './color-env.js';

// Before anything loads Node's color code (Node 22 warns there) or spawns a child.
settleColorEnv(process.env);

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type RunCli = (argv: readonly string[]) => Promise<number>;
try {
  const { runCli } = loadCached(join(__dirname, 'agent-state.cjs')) as { runCli: RunCli };
  void runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
} catch (error) {
  // Only a broken installation gets here (the bundle reports everything else itself).
  process.stderr.write(
    `agent-state: cannot load the CLI bundle: ${(error as Error).message} (fix: reinstall agent-state)\n`,
  );
  process.exitCode = 70;
}
