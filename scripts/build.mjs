// Build: compile TypeScript (dist/, the library), bundle the CLI (dist/bundle/, for start-up:
// loading one file instead of ~150 small modules halves the cost of every hook call), and
// precompile every JSON Schema in schemas/ into a standalone ajv validator
// (dist/validators/<name>.cjs), so no command compiles a schema at run time (~80 ms).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Ajv2020 } = require('ajv/dist/2020.js');
const addFormats = require('ajv-formats');
const standaloneCode = require('ajv/dist/standalone').default;

rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')],
  {
    stdio: 'inherit',
  },
);

// Before bundling: the code-cached bundles hold the validators inline.
const validatorNames = [];
const outDir = join(root, 'dist', 'validators');
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.schema.json'))) {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8'));
  const ajv = new Ajv2020({ code: { source: true }, allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const name = file.replace(/\.schema\.json$/, '');
  writeFileSync(join(outDir, `${name}.cjs`), standaloneCode(ajv, validate));
  validatorNames.push(name);
}

const esbuild = await import('esbuild');
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  minify: true,
  keepNames: true,
  legalComments: 'linked',
};
// CommonJS output (entry.cjs and the code-cached bundles): import.meta.url comes from __filename.
const commonCjs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__agentStateModuleUrl' },
  banner: {
    js: "'use strict'; const __agentStateModuleUrl = require('node:url').pathToFileURL(__filename).href;",
  },
};
// What a command imports dynamically (its implementation, loaded only when it runs) stays out of
// main.cjs and loads from the tsc output: every start-up then compiles only the static part.
// Errors cross the boundary fine (AgentStateError recognizes its other copies).
const lazyFromTsc = {
  name: 'lazy-from-tsc',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer.startsWith(join(root, 'dist')))
        return undefined;
      const target = join(dirname(args.importer), args.path);
      const fromBundle = relative(join(root, 'dist', 'bundle'), target)
        .split('\\')
        .join('/');
      return { path: fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`, external: true };
    });
  },
};
// In the code-cached bundles, src/state/validator-file.ts becomes a table of the validators, so
// esbuild bundles them (and the ajv runtime helpers they require) and the cache covers them: by
// path, each was compiled from source on every run. esbuild wraps each in a lazy CommonJS
// wrapper, so a validator still runs only when first used.
const inlineValidators = {
  name: 'inline-validators',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]state[\\/]validator-file\.js$/ }, () => ({
      loader: 'js',
      resolveDir: join(root, 'dist', 'state'),
      contents: [
        'export function requireValidatorFile(name) {',
        '  switch (name) {',
        ...validatorNames.map(
          (name) =>
            `    case ${JSON.stringify(name)}: return require('../validators/${name}.cjs');`,
        ),
        '  }',
        '  throw new Error(`no validator named ${name} in this build`);',
        '}',
      ].join('\n'),
    }));
  },
};
// CommonJS bundles that entry.cjs compiles with a V8 code cache (load-cached.ts): main.cjs and the
// fast paths. A script compiled from a code cache loses its dynamic-import callback on Node
// 20, so each bundle imports through a function entry.cjs provides instead of `import()`; run
// directly (node dist/bundle/main.cjs), it falls back to its own `import()`.
async function cachedBundle(name, options) {
  const file = join(root, 'dist', 'bundle', `${name}.cjs`);
  await esbuild.build({
    ...commonCjs,
    ...options,
    plugins: [...(options.plugins ?? []), inlineValidators],
    entryPoints: [join(root, 'dist', 'cli', `${name}.js`)],
    outfile: file,
  });
  const code = readFileSync(file, 'utf8');
  const dynamicImport = /(?<![\w$.])import\(/g;
  const fallback =
    "var __agentStateImport = globalThis.__agentStateImport ?? ((s) => import(s.startsWith('.') ? new URL(s, __agentStateModuleUrl).href : s));\n";
  const routed = code.replace(dynamicImport, '__agentStateImport(');
  const at = routed.indexOf('\n') + 1; // after the banner that defines __agentStateModuleUrl
  writeFileSync(file, routed.slice(0, at) + fallback + routed.slice(at));
}

await cachedBundle('main', {
  plugins: [lazyFromTsc],
  external: ['gpt-tokenizer', 'gpt-tokenizer/*', 'chokidar'],
});

// The bin's first module, entry.cjs (CommonJS: no ES module loader on the hot paths), routes
// `event` (run by hooks after every tool call), `hook` (git hooks) and `boot` (hosts) to fast
// paths and everything else to main.cjs; each is one self-contained bundle compiled from a code
// cache (one module loads ~10 ms faster than a dozen chunks). Re-reading config.yaml (only when
// it changed) needs the YAML parser: that import stays external and resolves to the tsc output,
// dist/events/config-for-log.js (dist/bundle/ and dist/events/ sit at the same depth).
await esbuild.build({
  ...commonCjs,
  entryPoints: [join(root, 'dist', 'cli', 'entry.js')],
  outfile: join(root, 'dist', 'bundle', 'entry.cjs'),
});
for (const name of ['event-cli', 'hook-entry'])
  await cachedBundle(name, { external: ['../events/config-for-log.js', 'chokidar'] });
// lazy-entry.js holds the rarely run commands (hooks install/status, watch) whose code would
// otherwise weigh on every start-up; main.cjs loads it by path when one of them runs. chokidar
// (for watch) stays a plain dependency, loaded only then.
await esbuild.build({
  ...common,
  entryPoints: [join(root, 'dist', 'cli', 'lazy-entry.js')],
  outfile: join(root, 'dist', 'bundle', 'lazy-entry.js'),
  external: ['chokidar'],
  // CommonJS dependencies (picomatch, yaml's helpers) may call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
// `boot` (run by hosts at every session start) has a fast path of its own, self-contained too.
// gpt-tokenizer stays external: bundled without splitting, its stock rank table (2.4 MB, loaded
// only as a fallback) would be parsed on every boot.
await cachedBundle('boot-cli', {
  external: ['../events/config-for-log.js', 'gpt-tokenizer', 'gpt-tokenizer/*'],
});

// `hook <host>` and `statusline` (run by agent hosts after every tool call and message) get their
// own bundle with its own chunk graph, so that what they load on the hot path (PostToolUse) is
// only what it needs: the YAML parser, the boot prompt and the tokenizer stay in chunks that load
// when a call needs them. entry.cjs routes these calls to dist/bundle/hook/hook-main.js. Nothing is
// external here: the chunks sit one level deeper than dist/bundle/.
await esbuild.build({
  ...common,
  entryPoints: [join(root, 'dist', 'cli', 'hook-main.js')],
  outdir: join(root, 'dist', 'bundle', 'hook'),
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});

// The o200k rank table of the boot prompt's tokenizer (src/boot/o200k-table.ts explains why),
// written with the compiled table code so that build and run time hash alike.
const { buildRankTable, PROBE } = await import('../dist/boot/o200k-table.js');
const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
const probeTokens = countTokens(PROBE, { disallowedSpecial: new Set() });
mkdirSync(join(root, 'dist', 'tokenizer'), { recursive: true });
writeFileSync(join(root, 'dist', 'tokenizer', 'o200k.bin'), buildRankTable(ranks, probeTokens));
