// NO_COLOR and FORCE_COLOR both set (a common shell setup): agent-state's rule is that a non-empty
// NO_COLOR wins. Node 22+ warns "The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being
// set" in any process that sees both, so neither our process nor a child we spawn may see both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitdir, runBin, testdir, writeFiles } from '../helpers/fixtures.js';

const BOTH = { NO_COLOR: '1', FORCE_COLOR: '1' };

describe('NO_COLOR and FORCE_COLOR together', () => {
  it('done, evidence add, statusline and integrate print no Node warning', async () => {
    const repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    expect((await runBin(repo, ['init', '--goal', 'Colors'])).code).toBe(0);
    expect((await runBin(repo, ['plan', 'add', 'Write a'])).code).toBe(0);
    const runs = [
      await runBin(repo, ['done', 't1', '--files', 'src/a.ts'], { env: BOTH }),
      await runBin(repo, ['evidence', 'add', '--kind', 'note', '--summary', 'x'], { env: BOTH }),
      await runBin(repo, ['statusline'], { env: BOTH, input: '{}' }),
      await runBin(repo, ['integrate', 'claude'], { env: BOTH }),
    ];
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/Warning|NO_COLOR/);
      expect(run.stdout).not.toContain('\u001b[');
    }
  });

  it('the test command that checkpoint runs sees NO_COLOR alone', async () => {
    const out = join(testdir(), 'env.json');
    const repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    writeFiles(repo, {
      'env.js': `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ no: process.env.NO_COLOR ?? null, force: process.env.FORCE_COLOR ?? null }));\n`,
    });
    expect((await runBin(repo, ['init', '--test', 'node env.js'])).code).toBe(0);
    const checkpoint = await runBin(repo, ['checkpoint', '-m', 'env'], { env: BOTH });
    expect(checkpoint.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ no: '1', force: null });
  });

  it('an empty FORCE_COLOR means unset (Node would read it as "force colors")', async () => {
    const out = join(testdir(), 'env.json');
    const repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    writeFiles(repo, {
      'env.js': `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ no: process.env.NO_COLOR ?? null, force: process.env.FORCE_COLOR ?? null }));\n`,
    });
    expect((await runBin(repo, ['init', '--test', 'node env.js'])).code).toBe(0);
    const env = { NO_COLOR: '', FORCE_COLOR: '' };
    expect((await runBin(repo, ['checkpoint', '-m', 'env'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ no: null, force: null });
  });
});
