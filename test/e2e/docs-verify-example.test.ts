// The markers / checkpoint / verify example in docs/api.md must run as written against the built package.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runCli, testdir } from '../helpers/fixtures.js';

describe('docs/api.md', () => {
  it('runs its skip / checkpoint / verify example', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    const code = /### Example: skip a proven step, checkpoint, verify\n\n```js\n([\s\S]*?)```/.exec(
      doc,
    )?.[1];
    expect(code).toBeDefined();
    const app = testdir({ 'example.mjs': code! });
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(REPO_ROOT, join(app, 'node_modules', 'agent-state'));
    const repo = gitdir({ 'src/parser/index.js': 'export const parse = (s) => s;\n' });
    expect((await runCli(repo, ['init'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'Write the parser', '--id', 't1'])).code).toBe(0);
    const run = () =>
      execFileSync(process.execPath, [join(app, 'example.mjs'), repo], { encoding: 'utf8' }).trim();
    expect(run()).toBe('the state matches the tree');
    // The second time, t1 is proven: it is skipped, and the state still matches.
    expect(run()).toBe('the state matches the tree');
    expect((await runCli(repo, ['check', 't1'])).code).toBe(0);
  });
});
