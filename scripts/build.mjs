// Build: compile TypeScript, then precompile every JSON Schema in schemas/ into a standalone
// ajv validator (dist/validators/<name>.cjs), so that no command compiles a schema at run time
// (a runtime compile costs ~80 ms of start-up; a standalone module ~14 ms).
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
