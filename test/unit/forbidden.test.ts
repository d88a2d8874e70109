import { describe, expect, it } from 'vitest';
import { compileForbidden, findForbidden } from '../../src/state/forbidden.js';
import { parseGoals } from '../../src/state/goals.js';
import { forbiddenFindings } from '../../src/verify/findings.js';

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

  it('matches paths with a newline or any other control character, in a file or a directory name', () => {
    for (const c of ['\n', '\r', '\t', '\u0000', '\u001b', '\u0085', '\u2028'])
      for (const path of [
        `src/storage/a${c}b.js`,
        `src/storage/d${c}x/f.js`,
        `${c}x.pem`,
        `d${c}/k.pem`,
      ])
        expect(match(path)?.path, JSON.stringify(path)).toBe(path);
    expect(match('docs/legal/\n')).not.toBeNull();
    expect(match('src/st\norage/a.js')).toBeNull();
  });

  it('matches without case only when asked (a case-insensitive file system)', () => {
    expect(match('SRC/storage/x.js')).toBeNull();
    const nocase = compileForbidden(entries, { nocase: true });
    expect(nocase('SRC/Storage/x.js')?.glob).toBe('src/storage/**');
    expect(nocase('keys/KEY.PEM')?.glob).toBe('*.pem');
    expect(nocase('Docs/Legal')?.glob).toBe('docs/legal');
    expect(nocase('src/storagex/db.ts')).toBeNull();
  });
});

describe('forbiddenFindings', () => {
  it('quotes the path in the command it suggests', () => {
    const [finding] = forbiddenFindings([
      {
        path: 'src/storage/a;rm -rf $(x).js',
        glob: 'src/storage/**',
        rule: 'frozen',
        source: 'dirty',
      },
    ]);
    expect(finding!.fix).toContain(
      "git restore --staged --worktree -- 'src/storage/a;rm -rf $(x).js'",
    );
  });
});
