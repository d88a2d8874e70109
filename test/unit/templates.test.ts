// What `init` writes says what the code does: the template's comments and schema references.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

const template = (name: string) => readFileSync(join(REPO_ROOT, 'templates', name), 'utf8');

describe('templates', () => {
  it('config.yaml describes boot.level auto as chooseLevel does (no rebuild for stale markers)', () => {
    const text = template('config.yaml');
    const line = text.slice(text.indexOf('# Recovery level'), text.indexOf('level: auto'));
    expect(line).toContain('restart loop');
    expect(line).not.toMatch(/stale markers/);
    expect(line).toMatch(/branch switch/);
  });
});
