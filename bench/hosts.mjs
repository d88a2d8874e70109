// The cost of agent-state's hooks inside the real hosts: per host, a scripted session of tool
// calls (each a shell `true` the model stub asks for) in a repository wired by `agent-state
// integrate`, against the same session in the same kind of repository without it, interleaved.
// Sessions of two lengths cancel what a session pays once (start-up, SessionStart, Stop):
//   added per tool call = ((hooks_long - hooks_short) - (plain_long - plain_short)) / (long - short)
// which is PreToolUse + PostToolUse together, compared with a bare `node -e 0` timed in the same
// run. Target: ≤ 1.5× `node -e 0`.
// Usage: node bench/hosts.mjs [--host claude,codex] [--rounds 5] [--calls 2,12]
// Hosts come from test/hosts/harness/hosts/*.ts: every driver module that exports `bench`
// (a BenchSpec) is measured; the pinned versions are installed first (test/hosts/versions.json).
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, ROOT, timeOnce } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', '5'));
const [short, long] = arg('calls', '2,12').split(',').map(Number);
const only = arg('host', '')?.split(',').filter(Boolean) ?? [];
const TARGET = 1.5;

// The harness is TypeScript (the tier runs it through vitest): bundle it once for this run, inside
// node_modules so that its imports (yaml) resolve.
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'agent-state-bench-hosts-'));
const hostsDir = join(ROOT, 'test', 'hosts', 'harness', 'hosts');
const modules = readdirSync(hostsDir).filter((f) => f.endsWith('.ts'));
const entry = [
  `export { hostSession, installedHost } from ${JSON.stringify(join(ROOT, 'test/hosts/harness/run-host.ts'))};`,
  ...modules.map((f, i) => `export * as m${i} from ${JSON.stringify(join(hostsDir, f))};`),
].join('\n');
await build({
  stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: join(out, 'harness.mjs'),
  logLevel: 'warning',
  // The harness finds the repository from its own location.
  define: {
    'import.meta.url': JSON.stringify(pathToFileURL(join(ROOT, 'test/hosts/harness/x.ts')).href),
  },
});
const harness = await import(pathToFileURL(join(out, 'harness.mjs')).href);
const specs = Object.values(harness)
  .map((m) => m?.bench)
  .filter((b) => b && b.driver && typeof b.toolCall === 'function')
  .filter((b) => only.length === 0 || only.includes(b.driver.host));

const script = (spec, calls) => [
  ...Array.from({ length: calls }, (_, i) => ({ toolCalls: [spec.toolCall(i)] })),
  { text: 'Done.' },
];

let failed = 0;
try {
  for (const spec of specs) {
    const host = spec.driver.host;
    const hooked = await harness.hostSession(spec.driver);
    const plain = await harness.hostSession(spec.driver, { integrate: undefined });
    const cases = {
      hooks_short: [hooked, short],
      hooks_long: [hooked, long],
      plain_short: [plain, short],
      plain_long: [plain, long],
    };
    const times = Object.fromEntries([...Object.keys(cases), 'node'].map((k) => [k, []]));
    try {
      for (let round = 0; round <= rounds; round++) {
        for (const [name, [session, calls]] of Object.entries(cases)) {
          const run = await session.run('Run the steps', script(spec, calls), {
            timeoutMs: 300_000,
          });
          if (run.code !== 0)
            throw new Error(`${host} exited ${run.code}: ${run.stderr.slice(-500)}`);
          const turns = session.stub.turns().length;
          if (turns !== calls + 1)
            throw new Error(`${host}: ${turns} model turns, expected ${calls + 1}`);
          if (round > 0) times[name].push(run.ms); // round 0 warms the caches
        }
        // node -e 0 a few times each round, spread like the sessions are.
        for (let i = 0; i < 5; i++) {
          const node = timeOnce({ cmd: process.execPath, args: ['-e', '0'], cwd: ROOT });
          if (round > 0) times.node.push(node);
        }
      }
    } finally {
      await hooked.close();
      await plain.close();
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    const perCall =
      (m.hooks_long - m.hooks_short - (m.plain_long - m.plain_short)) / (long - short);
    const ratio = perCall / m.node;
    const verdict = ratio <= TARGET ? 'PASS' : 'FAIL';
    if (ratio > TARGET) failed++;
    console.log(
      `${host} ${harness.installedHost(host).version} (${rounds} interleaved rounds, medians; sessions of ${short} and ${long} tool calls)`,
    );
    console.log(
      `  session ms: hooks ${m.hooks_short.toFixed(0)} / ${m.hooks_long.toFixed(0)}, without ${m.plain_short.toFixed(0)} / ${m.plain_long.toFixed(0)}`,
    );
    console.log(
      `  hooks add ${perCall.toFixed(1)} ms per tool call (PreToolUse + PostToolUse) / node -e 0 ${m.node.toFixed(1)} ms = ${ratio.toFixed(2)} (target ≤ ${TARGET}) ${verdict}`,
    );
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
