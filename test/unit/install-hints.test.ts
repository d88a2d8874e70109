// The install hints name what works for how this copy was installed: agent-state is not on the
// npm registry, so `npm install -g agent-state` is never one of them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installHint, packageRoot, upgradeHint } from '../../src/package-root.js';
import { REPO_ROOT, testdir } from '../helpers/fixtures.js';

describe('install hints', () => {
  it('links a clone or an unpacked folder, and names the bin folder of a global install', () => {
    expect(packageRoot()).toBe(REPO_ROOT);
    expect(installHint()).toBe(`npm install -g ${REPO_ROOT}`);
    expect(installHint('/home/me/src/agent state')).toBe(
      "npm install -g '/home/me/src/agent state'",
    );
    expect(installHint('/usr/local/lib/node_modules/agent-state')).toBe(
      'add /usr/local/bin to PATH (npm installed agent-state there)',
    );
  });

  it('upgrades a clone by pulling it, and any other copy from a newer tarball', () => {
    const clone = testdir();
    mkdirSync(join(clone, '.git'));
    expect(upgradeHint(clone)).toBe(`git -C ${clone} pull && npm install -g ${clone}`);
    const copy = testdir();
    expect(upgradeHint(copy)).toBe(
      `install a newer agent-state in place of ${copy} (\`npm pack\` in a newer clone, then \`npm install -g\` its tarball)`,
    );
  });
});
