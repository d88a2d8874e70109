// `npm test`, the default loop: the build (skipped when dist/ was built from the same inputs), then
// the unit, integration and e2e tiers, with eslint, prettier and tsc running beside them (one after
// the other they cost a 2-core machine ~40 s more). Arguments go to vitest. vitest's output comes as
// it runs, each check's once vitest is done; exit code 1 when any part failed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

// Runs `command`; resolves with its exit code and (unless `inherit`) its output.
function run(name, command, args, inherit = false) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const done = (code) =>
      resolve({ name, code, output, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    child.on('error', (error) => {
      output += `${error.message}\n`;
      done(1);
    });
    child.on('close', done);
  });
}

const tool = (name) => join(root, 'node_modules', '.bin', name);
const checks = [
  run('eslint', tool('eslint'), ['.']),
  run('prettier', tool('prettier'), ['--check', '.']),
  run('typecheck', tool('tsc'), ['-p', 'tsconfig.test.json']),
];
const script = join(root, 'scripts', 'build.mjs');
const build = await run('build', process.execPath, [script, '--if-changed', '--no-check']);
const tiers = ['unit', 'integration', 'e2e'].flatMap((tier) => ['--project', tier]);
const results = [
  build,
  ...(build.code === 0
    ? [await run('vitest', tool('vitest'), ['run', ...tiers, ...process.argv.slice(2)], true)]
    : []),
  ...(await Promise.all(checks)),
];
for (const { name, code, output, seconds } of results) {
  if (code !== 0 && output) process.stdout.write(`\n::: ${name}\n${output}`);
  console.log(`${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}, done at ${seconds} s`);
}
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
