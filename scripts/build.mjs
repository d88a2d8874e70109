// Build: compile TypeScript (dist/, the library), bundle the CLI (dist/bundle/, for start-up:
// loading one file instead of ~150 small modules halves the cost of every hook call), and
// precompile every JSON Schema in schemas/ into a standalone ajv validator
// (dist/validators/<name>.cjs), so no command compiles a schema at run time (~80 ms).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

// Dynamic imports stay separate chunks (splitting), so heavy modules still load lazily.
const esbuild = await import('esbuild');
const bundle = (entry, outdir) => ({
  entryPoints: [join(root, 'dist', 'cli', entry)],
  outdir: join(root, 'dist', outdir),
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  minify: true,
  keepNames: true,
  legalComments: 'linked',
  // chokidar (watch only) stays a plain dependency: as a chunk it would share esbuild's helpers
  // with the entry, which would then load one more file on every start.
  external: ['chokidar'],
  // CommonJS dependencies (commander) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
await esbuild.build(bundle('main.js', 'bundle'));
// The lean entry git hooks run on every commit (bin routes `hook ...` to it): a bundle of its own,
// so it shares no chunk with the CLI, and the CLI's start-up loads nothing of it.
await esbuild.build(bundle('hook-entry.js', join('bundle', 'hook')));
// Rarely run commands (hooks install/status, watch) whose code would weigh on every start-up.
await esbuild.build(bundle('lazy-entry.js', join('bundle', 'lazy')));

const outDir = join(root, 'dist', 'validators');
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.schema.json'))) {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8'));
  const ajv = new Ajv2020({ code: { source: true }, allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const name = file.replace(/\.schema\.json$/, '');
  writeFileSync(join(outDir, `${name}.cjs`), standaloneCode(ajv, validate));
}
