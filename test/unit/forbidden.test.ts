import { describe, expect, it } from 'vitest';
import { compileForbidden, findForbidden } from '../../src/state/forbidden.js';
import { parseGoals } from '../../src/state/goals.js';

const entries = parseGoals(`# T

Anchor.

## Forbidden

- \`src/storage/**\` — frozen interface
- \`*.pem\` and \`secrets/\`: never commit keys
- \`docs/legal\`
- Do not rewrite history (no glob here)
`).goals.forbidden;

describe('compileForbidden', () => {
  const match = compileForbidden(entries);

  it('matches globs, directories and bare file names at any depth', () => {
    expect(match('src/storage/db.ts')?.glob).toBe('src/storage/**');
    expect(match('src/storage/deep/x.ts')?.rule).toBe('`src/storage/**` — frozen interface');
    expect(match('certs/server.pem')?.glob).toBe('*.pem');
    expect(match('secrets/token.txt')?.glob).toBe('secrets/');
    expect(match('docs/legal')?.glob).toBe('docs/legal');
    expect(match('docs/legal/terms.md')?.glob).toBe('docs/legal');
  });

  it('does not match neighbours', () => {
    expect(match('src/storagex/db.ts')).toBeNull();
    expect(match('src/server.ts')).toBeNull();
    expect(match('docs/legalese.md')).toBeNull();
    expect(match('pem')).toBeNull();
  });

  it('lists every hit in input order', () => {
    const hits = findForbidden(entries, ['a.ts', 'src/storage/a.ts', 'x/y.pem']);
    expect(hits.map((h) => h.path)).toEqual(['src/storage/a.ts', 'x/y.pem']);
  });
});
