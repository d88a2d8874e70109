// npm 11 runs no dependency's install script unless package.json's allowScripts says so, and
// warns at every install about each one it has no word on: every package of the lock file that
// has an install script gets a decision.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

const read = (file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as unknown;

describe('allowScripts', () => {
  it('decides on every locked package that has an install script', () => {
    const lock = read('package-lock.json') as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const pkg = read('package.json') as { allowScripts?: Record<string, boolean> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(pkg.allowScripts, name).toHaveProperty([name]);
  });
});
