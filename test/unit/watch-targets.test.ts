import { describe, expect, it } from 'vitest';
import {
  branchOfHead,
  classifyChange,
  forbiddenTargets,
  pruneNested,
  watchPaths,
} from '../../src/watch/watch.js';
import { compileForbidden } from '../../src/state/forbidden.js';
import { parseGoals } from '../../src/state/goals.js';

const { forbidden } = parseGoals(`# T

A.

## Forbidden

- \`src/storage/**\` — frozen
- \`docs/legal/\` and \`config/*.prod.yaml\`
- \`*.pem\` and \`**/secret.key\`
- \`src/storage/deep/*.sql\`
`).goals;

describe('forbiddenTargets', () => {
  it('watches the static directory of each glob, and lists the globs that match anywhere', () => {
    const targets = forbiddenTargets(forbidden);
    expect(targets.dirs).toEqual(['config', 'docs/legal', 'src/storage', 'src/storage/deep']);
    expect(targets.anywhere).toEqual([
      { glob: '*.pem', pathspec: ':(glob)**/*.pem' },
      { glob: '**/secret.key', pathspec: ':(glob)**/secret.key' },
    ]);
  });

  it('never watches the same tree twice', () => {
    expect(pruneNested(['src/storage/deep', 'src/storage', 'src/storagex', 'a'])).toEqual([
      'a',
      'src/storage',
      'src/storagex',
    ]);
    expect(watchPaths('/r', '/r/.git', ['src/storage'])).toEqual([
      '/r/.agent',
      '/r/src/storage',
      '/r/.git/HEAD',
      '/r/.git/index',
    ]);
  });
});

describe('classifyChange', () => {
  const matcher = compileForbidden(forbidden);
  const at = '2026-01-01T00:00:00.000Z';

  it('reports a Forbidden path with its rule and ignores its unguarded neighbours', () => {
    expect(classifyChange('change', 'src/storage/db.ts', '/nowhere', matcher, at)).toMatchObject({
      kind: 'forbidden',
      glob: 'src/storage/**',
      rule: '`src/storage/**` — frozen',
    });
    expect(classifyChange('change', 'config/dev.yaml', '/nowhere', matcher, at)).toBeNull();
  });

  it('ignores machine-local files under .agent/', () => {
    expect(classifyChange('change', '.agent/log/events.jsonl', '/nowhere', matcher, at)).toBeNull();
  });

  it('reads the branch from HEAD', () => {
    expect(branchOfHead('ref: refs/heads/feature/x\n')).toBe('feature/x');
    expect(branchOfHead('0123abcd\n')).toBeNull();
  });
});
