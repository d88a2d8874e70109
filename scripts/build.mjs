// Build: compile the library with tsc (dist/, with types), precompile every JSON Schema in
// schemas/ into a standalone ajv validator (dist/validators/<name>.cjs: no command compiles a
// schema at run time, ~80 ms), bundle the CLI in one esbuild call (dist/bundle/: the loader
// start.cjs and the one CLI bundle agent-state.cjs), and write the tokenizer's rank table.
// `--if-changed` (npm test) does nothing when dist/ was built from these very inputs, and
// `--no-check` leaves type errors to `npm run typecheck` (npm test runs it beside the tests).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Ajv2020 } = require('ajv/dist/2020.js');
const addFormats = require('ajv-formats');
const standaloneCode = require('ajv/dist/standalone').default;

// What dist/ is made of (the bundled dependencies come with package-lock.json).
const INPUTS = ['src', 'schemas', 'scripts/build.mjs', 'tsconfig.json', 'package-lock.json'];
const inputs = createHash('sha256');
for (const input of INPUTS) {
  const files = statSync(join(root, input)).isDirectory()
    ? readdirSync(join(root, input), { recursive: true }).map((f) => join(input, f))
    : [input];
  for (const file of files.sort())
    if (statSync(join(root, file)).isFile())
      inputs.update(`${file}\0`).update(readFileSync(join(root, file)));
}
const digest = inputs.digest('hex');
const stamp = join(root, 'dist', '.inputs.sha256');
if (process.argv.includes('--if-changed') && existsSync(stamp)) {
  if (readFileSync(stamp, 'utf8') === digest) process.exit(0);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
const noCheck = process.argv.includes('--no-check') ? ['--noCheck'] : [];
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), ...noCheck],
  {
    stdio: 'inherit',
  },
);

const validatorNames = [];
const validatorDir = join(root, 'dist', 'validators');
mkdirSync(validatorDir, { recursive: true });
for (const file of readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.schema.json'))) {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8'));
  const ajv = new Ajv2020({ code: { source: true }, allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const name = file.replace(/\.schema\.json$/, '');
  writeFileSync(join(validatorDir, `${name}.cjs`), standaloneCode(ajv, validate));
  validatorNames.push(name);
}

// In the bundle, src/state/validator-file.ts becomes a table of the validators, so they (and the
// ajv runtime helpers they require) are compiled from the code cache too; esbuild wraps each in a
// lazy CommonJS wrapper, so a validator still runs only when first used.
// `inline`: the validators a bundle holds; any other is loaded from dist/validators/ on use (the hot
// bundle holds only the event's: the others are a cache miss's rare path, and ~200 KB to read).
const inlineValidators = (inline = validatorNames) => ({
  name: 'inline-validators',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]state[\\/]validator-file\.ts$/ }, () => ({
      loader: 'js',
      resolveDir: validatorDir,
      contents: [
        'export function requireValidatorFile(name) {',
        '  switch (name) {',
        ...inline.map((n) => `    case ${JSON.stringify(n)}: return require('./${n}.cjs');`),
        '  }',
        "  return require(require('node:path').join(__dirname, '..', 'validators', `${name}.cjs`));",
        '}',
      ].join('\n'),
    }));
  },
});

// Left in node_modules and loaded on use: large, and needed by few calls (`mcp`, `watch`, a
// fingerprint outside git).
// Everything else is in the one bundle, gpt-tokenizer's BPE core included (a few KB: the o200k
// ranks come from dist/tokenizer/o200k.bin, so gpt-tokenizer is only needed to build).
const external = ['@modelcontextprotocol/server', 'zod', 'chokidar'];
const esbuild = await import('esbuild');
// `event`, `hook` and `boot` each from a bundle of its own (src/cli/run-hot.ts), with the validators
// they run on every call inline: the event's, and for `hook` config.yaml's (the Forbidden guard
// before a tool call reads config.yaml itself, not the cache an agent could write). The others
// are read from dist/validators/ on a cache miss.
const HOT = { event: ['event'], hook: ['event', 'config'], boot: ['event'] };
const bundles = [
  { entries: { start: 'start.ts', 'agent-state': 'run-cli.ts' } },
  ...Object.entries(HOT).map(([word, validators]) => ({
    entries: { [`agent-state-${word}`]: 'run-hot.ts' },
    validators,
    word,
  })),
];
for (const { entries, validators, word } of bundles)
  await esbuild.build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, file]) => [name, join(root, 'src', 'cli', file)]),
    ),
    outdir: join(root, 'dist', 'bundle'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external,
    plugins: [inlineValidators(validators)],
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
    // CommonJS output: import.meta.url comes from __filename.
    define: {
      'import.meta.url': '__agentStateModuleUrl',
      ...(word && { AGENT_STATE_HOT_WORD: JSON.stringify(word) }),
    },
    banner: {
      js: "'use strict'; const __agentStateModuleUrl = require('node:url').pathToFileURL(__filename).href;",
    },
  });

// A script compiled from a V8 code cache has no dynamic-import callback on Node 20, so the
// bundle's `import()` of the external packages calls a function that start.cjs provides
// (code-cache.ts); run any other way, the bundle falls back to its own `import()`.
for (const name of ['agent-state', ...Object.keys(HOT).map((word) => `agent-state-${word}`)]) {
  const bundle = join(root, 'dist', 'bundle', `${name}.cjs`);
  // start.cjs reads the bundle as latin1 (a plain copy; UTF-8 decoding of it cost ~3 ms a call), so
  // the bundle must be ASCII. esbuild escapes non-ASCII text, but not in tagged templates (whose raw
  // strings it keeps) or regular expressions: there, \uXXXX means the same (no code reads the raw
  // strings of a template; the page's markup tag uses the cooked ones).
  const code = readFileSync(bundle, 'utf8')
    .replace(/[^ -~\t\n\r]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/(?<![\w$.])import\(/g, '__agentStateImport(');
  const fallback =
    "var __agentStateImport = globalThis.__agentStateImport ?? ((s) => import(s.startsWith('.') ? new URL(s, __agentStateModuleUrl).href : s));\n";
  const at = code.indexOf('\n') + 1; // after the banner that defines __agentStateModuleUrl
  writeFileSync(bundle, code.slice(0, at) + fallback + code.slice(at));
}

// The o200k rank table of the boot prompt's tokenizer (src/boot/o200k-table.ts explains why),
// written with the compiled table code so that build and run time hash alike.
const { buildRankTable, PROBE } = await import('../dist/boot/o200k-table.js');
const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
const probeTokens = countTokens(PROBE, { disallowedSpecial: new Set() });
mkdirSync(join(root, 'dist', 'tokenizer'), { recursive: true });
writeFileSync(join(root, 'dist', 'tokenizer', 'o200k.bin'), buildRankTable(ranks, probeTokens));
writeFileSync(stamp, digest);
