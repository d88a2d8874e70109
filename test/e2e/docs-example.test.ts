// The library example in docs/api.md must run as written against the built package.
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, testdir } from '../helpers/fixtures.js';

describe('docs/api.md', () => {
  it('runs its example', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    const code = /## Example\n\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    // Install the package the way a user would see it: node_modules/agent-state → this checkout.
    const app = testdir({ 'example.mjs': code! });
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(REPO_ROOT, join(app, 'node_modules', 'agent-state'));
    const repo = gitdir();
    const out = execFileSync(process.execPath, [join(app, 'example.mjs'), repo], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(
      'Add pagination to GET /todos → Create test/pagination.test.js (revision 1)',
    );
  });
});
