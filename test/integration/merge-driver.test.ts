// The merge driver on real files: a merge whose result no reader would accept (over 1 MiB) stops
// as a conflict instead of leaving a state every command refuses.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMergeDriver } from '../../src/merge/merge-driver.js';
import { testdir } from '../helpers/fixtures.js';

const progress = (side: string, items: number) =>
  `version: 1\nrevision: 1\nplan:\n${Array.from(
    { length: items },
    (_, i) =>
      `  - id: ${side}-${i}\n    title: ${side} ${i} ${'x'.repeat(180)}\n    status: pending\n`,
  ).join('')}`;

describe('merge-driver', () => {
  it('stops a merge whose result would be over the 1 MiB every reader accepts', () => {
    const dir = testdir();
    const files = { base: join(dir, 'base'), ours: join(dir, 'ours'), theirs: join(dir, 'theirs') };
    writeFileSync(files.base, progress('base', 1));
    writeFileSync(files.ours, progress('ours', 2800));
    writeFileSync(files.theirs, progress('theirs', 2800));
    const result = runMergeDriver({ ...files, path: '.agent/state/progress.yaml' });
    expect(result.conflicts).toEqual([
      expect.objectContaining({
        what: 'the size of the merged file',
        ours: expect.stringMatching(/^1\.\d MiB$/),
      }),
    ]);
    // Each side alone stays under the limit: a merge of small additions is no conflict.
    writeFileSync(files.theirs, progress('theirs', 10));
    writeFileSync(files.ours, progress('ours', 2800));
    expect(runMergeDriver(files).conflicts).toEqual([]);
  });
});
