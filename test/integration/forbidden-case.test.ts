// Forbidden ignores case exactly where the file system does: the probe asks for `.AGENT` and
// gets `.agent` there (macOS, Windows), and on a case-sensitive one `SRC/storage/x.js` is another
// file than `src/storage/x.js`, which the zone does not cover.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseInsensitive } from '../../src/state/forbidden.js';
import { verify } from '../../src/verify/verify.js';
import { runCli, testdir, writeFiles } from '../helpers/fixtures.js';
import { stateRepo } from '../helpers/hooks.js';

describe('caseInsensitive', () => {
  it('agrees with the file system of the root', () => {
    const root = testdir();
    mkdirSync(join(root, '.agent'));
    expect(caseInsensitive(root)).toBe(existsSync(join(root, '.AGENT')));
    expect(caseInsensitive(testdir())).toBe(false);
  });

  it('decides what verify calls Forbidden', async () => {
    const repo = await stateRepo();
    expect((await runCli(repo, ['checkpoint'])).code).toBe(0);
    writeFiles(repo, { 'SRC/Storage/x.js': 'x\n', 'src/storage/y.js': 'y\n' });
    const report = await verify({ cwd: repo });
    const expected = caseInsensitive(repo)
      ? ['SRC/Storage/x.js', 'src/storage/y.js']
      : ['src/storage/y.js'];
    expect(report.forbidden.map((f) => f.path).sort()).toEqual(expected);
  });
});
