// The merge driver on what the readers refuse and on hostile paths: a side over the readers' 1 MiB
// is merged by lines like git would (100k items a side ran past 300 s and 780 MB), and the
// `git add` it suggests quotes the path git passed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testdir } from '../helpers/fixtures.js';

const HEAD = 'version: 1\nrevision: 3\nplan:\n';
const item = (id: string, title: string) =>
  `  - id: ${id}\n    title: ${title}\n    status: pending\n`;

describe('merge-driver limits', () => {
  it('merges sides over 1 MiB by lines, in seconds', async () => {
    const dir = testdir();
    const many = (prefix: string) =>
      Array.from({ length: 20_000 }, (_, i) => item(`${prefix}${i}`, `Item ${i}`)).join('');
    const base = HEAD + many('b');
    writeFileSync(join(dir, 'base'), base);
    writeFileSync(join(dir, 'ours'), base + many('o'));
    writeFileSync(join(dir, 'theirs'), base + many('t'));
    const started = Date.now();
    const result = await runCli(dir, [
      'merge-driver',
      'base',
      'ours',
      'theirs',
      '.agent/state/progress.yaml',
      '--json',
    ]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ method: 'lines' });
    expect(result.stderr).toContain('over the 1 MiB limit for a state file: merged line by line');
    expect(readFileSync(join(dir, 'ours'), 'utf8')).toContain('<<<<<<<');
  });

  it('quotes the path in the `git add` it suggests', async () => {
    const dir = testdir();
    writeFileSync(join(dir, 'base'), HEAD + item('t1', 'Base'));
    writeFileSync(join(dir, 'ours'), HEAD + item('t1', 'Ours'));
    writeFileSync(join(dir, 'theirs'), HEAD + item('t1', 'Theirs'));
    const path = '.agent/state/a;touch pwned $(id).yaml';
    const result = await runCli(dir, ['merge-driver', 'base', 'ours', 'theirs', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`git add '${path}'`);
  });
});
