// The lean route's promise (docs/architecture.md): the calls hosts and git make on every tool
// call, message, commit and session start initialize neither commander, chalk nor the YAML
// parser (unless a state file must be read). The one bundle is built again here, unminified, with
// esbuild's lazy module initializers made to name each module they start; the calls run through
// it in a real repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runCli, testdir } from '../helpers/fixtures.js';

let bundle: string;

beforeAll(async () => {
  const esbuild = await import('esbuild');
  const dir = testdir();
  bundle = join(dir, 'dist', 'bundle', 'traced.cjs');
  mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
  await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'src', 'cli', 'run-cli.ts')],
    outfile: bundle,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    external: ['@modelcontextprotocol/server', 'zod', 'chokidar'],
    // Paths resolve from the real package (validators, templates, the tokenizer table).
    define: { 'import.meta.url': '__moduleUrl' },
    banner: {
      js: `const __moduleUrl = ${JSON.stringify(`file://${join(REPO_ROOT, 'dist', 'bundle', 'agent-state.cjs')}`)};`,
    },
  });
  const code = readFileSync(bundle, 'utf8')
    .replace(
      'var __esm = (fn, res) => function __init() {\n',
      "var __esm = (fn, res) => function __init() {\n  if (fn) process.stderr.write('init ' + Object.keys(fn)[0] + '\\n');\n",
    )
    .replace(
      'var __commonJS = (cb, mod) => function __require() {\n',
      "var __commonJS = (cb, mod) => function __require() {\n  if (!mod) process.stderr.write('init ' + Object.keys(cb)[0] + '\\n');\n",
    );
  expect(code).toContain("process.stderr.write('init '");
  writeFileSync(
    bundle,
    `${code}\nmodule.exports.runCli(process.argv.slice(2)).then((c) => { process.exitCode = c; });\n`,
  );
}, 60_000);

// The modules one call initialized.
function initialized(repo: string, args: string[], input = ''): string[] {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    cwd: repo,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('init '))
    .map((line) => line.slice(5));
}

const HEAVY = [/node_modules\/yaml\//, /node_modules\/commander\//, /node_modules\/chalk\//];

describe('the lean route', () => {
  it('initializes no commander or chalk, and no YAML unless a state file is read', async () => {
    const repo = gitdir({ 'src/app.js': 'a\n' });
    expect((await runCli(repo, ['init', '-q', '--goal', 'Stay lean'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'One', '--id', 't1', '-q'])).code).toBe(0);
    // The caches the hot paths read are made by the first call; measure the second.
    const postToolUse = JSON.stringify({
      session_id: 's',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(repo, 'src', 'app.js'), old_string: 'a', new_string: 'b' },
      tool_response: { filePath: join(repo, 'src', 'app.js'), success: true },
    });
    // [call, stdin, whether it reads a state file (then YAML is its work)]
    const calls: [string[], string, boolean][] = [
      [['event', 'tool.finished', '--field', 'name=grep'], '', false],
      [['hook', 'claude'], postToolUse, false],
      [['hook', 'post-checkout', '0000', '1111', '1'], '', false],
      [['statusline'], '', true],
      [['boot', '--level', '2', '--fast', '--dry-run'], '', true],
      [['status'], '', true],
    ];
    for (const [args, input, readsState] of calls) {
      initialized(repo, args, input);
      const modules = initialized(repo, args, input);
      expect(modules.length, args.join(' ')).toBeGreaterThan(0);
      for (const heavy of readsState ? HEAVY.slice(1) : HEAVY)
        expect(
          modules.filter((m) => heavy.test(m)),
          args.join(' '),
        ).toEqual([]);
    }
  });

  it('does load them where the work needs them (the check is real)', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q'])).code).toBe(0);
    const plan = initialized(repo, ['plan', 'list']);
    expect(plan.some((m) => /node_modules\/commander\//.test(m))).toBe(true);
    expect(plan.some((m) => /node_modules\/yaml\//.test(m))).toBe(true);
  });
});
