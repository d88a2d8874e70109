import { describe, expect, it } from 'vitest';
import { parseLog } from '../../src/git/history.js';
import { parseStatusV2 } from '../../src/git/status.js';

const SHA = 'a'.repeat(40);
const ZERO = '0'.repeat(40);

describe('parseStatusV2', () => {
  it('reads head, branch, upstream and ahead/behind from the headers', () => {
    const status = parseStatusV2([
      `# branch.oid ${SHA}`,
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -1',
    ]);
    expect(status).toMatchObject({
      head: SHA,
      branch: 'main',
      upstream: 'origin/main',
      ahead: 2,
      behind: 1,
    });
    expect(status.entries).toEqual([]);
  });

  it('knows a repository without commits and a detached HEAD', () => {
    const status = parseStatusV2(['# branch.oid (initial)', '# branch.head (detached)']);
    expect(status).toMatchObject({
      head: null,
      branch: null,
      upstream: null,
      ahead: null,
      behind: null,
    });
  });

  it('keeps paths with spaces, reads renames, unmerged and untracked entries', () => {
    const status = parseStatusV2([
      `1 .M N... 100644 100644 100644 ${SHA} ${SHA} src/a file.ts`,
      `2 R. N... 100644 100644 100644 ${SHA} ${SHA} R100 new name.ts`,
      'old name.ts',
      `u UU N... 100644 100644 100644 100644 ${SHA} ${SHA} ${SHA} conflict.ts`,
      `1 .M S.M. 160000 160000 160000 ${SHA} ${ZERO} vendor/lib`,
      '? notes/todo list.md',
      '! build/out.js',
    ]);
    expect(status.entries).toEqual([
      { path: 'src/a file.ts', kind: 'changed', xy: '.M', submodule: 'N...' },
      {
        path: 'new name.ts',
        kind: 'renamed',
        xy: 'R.',
        submodule: 'N...',
        origPath: 'old name.ts',
      },
      { path: 'conflict.ts', kind: 'unmerged', xy: 'UU', submodule: 'N...' },
      { path: 'vendor/lib', kind: 'changed', xy: '.M', submodule: 'S.M.' },
      { path: 'notes/todo list.md', kind: 'untracked', xy: '??', submodule: 'N...' },
      { path: 'build/out.js', kind: 'ignored', xy: '!!', submodule: 'N...' },
    ]);
  });
});

describe('parseLog', () => {
  it('splits commits, subjects and NUL-separated files', () => {
    const out = `\x1e${'c'.repeat(40)}\x1fthird: y\0\nd/x\0\x1e${'b'.repeat(40)}\x1fempty one\0\x1e${'a'.repeat(40)}\x1ftwo files\0\na b.txt\0d/x\0`;
    expect(parseLog(out)).toEqual([
      { sha: 'c'.repeat(40), subject: 'third: y', files: ['d/x'] },
      { sha: 'b'.repeat(40), subject: 'empty one', files: [] },
      { sha: 'a'.repeat(40), subject: 'two files', files: ['a b.txt', 'd/x'] },
    ]);
  });
});
