// The package's entries: a small main entry, and every subpath of package.json's exports map a
// file of src/api/ that docs/api.md names.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const apiFiles = readdirSync(join(REPO_ROOT, 'src', 'api')).map((f) => f.replace(/\.ts$/, ''));

describe('the public entries', () => {
  it('keeps the main entry at 80 runtime names at most', async () => {
    const main = await import('../../src/index.js');
    expect(Object.keys(main).length).toBeLessThanOrEqual(80);
  });

  it('maps every file of src/api/ to a subpath that docs/api.md names', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    for (const name of apiFiles) {
      expect(pkg.exports[`./${name}`]).toEqual({
        types: `./dist/api/${name}.d.ts`,
        default: `./dist/api/${name}.js`,
      });
      expect(doc).toContain(`\`agent-state/${name}\``);
      const entry = pathToFileURL(join(REPO_ROOT, 'src', 'api', `${name}.ts`)).href;
      expect(Object.keys((await import(entry)) as object).length).toBeGreaterThan(0);
    }
  });
});
