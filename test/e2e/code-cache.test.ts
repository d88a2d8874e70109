// The main bundle loads through a V8 code cache: written on the first run, used afterwards, and a
// damaged cache is only a slower start, never a different result.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runCli } from '../helpers/fixtures.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'bundle');
const cacheFiles = () =>
  readdirSync(BUNDLE).filter((f) => f.startsWith('main.cjs.') && f.endsWith('.cache'));

describe('the code cache of the main bundle', () => {
  it('is written by a run and gives the same output as a compile from source', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q', '--goal', 'Cache me'])).code).toBe(0);
    for (const file of cacheFiles()) rmSync(join(BUNDLE, file));
    const cold = await runCli(repo, ['status', '--json']);
    expect(cacheFiles()).toEqual([`main.cjs.${process.version}.cache`]);
    const warm = await runCli(repo, ['status', '--json']);
    expect(warm).toEqual(cold);

    writeFileSync(join(BUNDLE, cacheFiles()[0]!), 'not a V8 code cache');
    const damaged = await runCli(repo, ['status', '--json']);
    expect(damaged).toEqual(cold);
    // The rejected cache was replaced by a good one.
    expect(readFileSync(join(BUNDLE, cacheFiles()[0]!), 'utf8')).not.toBe('not a V8 code cache');
  });

  it('keeps dynamic imports and library errors working when loaded from the cache', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    expect((await runCli(repo, ['init', '-q'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'A', '-q'])).code).toBe(0);
    expect((await runCli(repo, ['done', 't1', '--files', 'a.txt'])).code).toBe(0);
    expect((await runCli(repo, ['check', 't1'])).code).toBe(0);
    const missing = await runCli(repo, ['done', 't1', '--files', 'nope.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^agent-state: no file matches "nope\.txt"/);
  });
});
