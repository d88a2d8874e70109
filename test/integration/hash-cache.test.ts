// Completion markers over many files cost a stat per file: a file's hash is kept with its size,
// mtime, ctime and inode in .agent/log/hashes.json and read again only when one of them differs
// (or the file changed too recently for its timestamp to tell). A boot hashes the changed files of
// its fingerprint through the same cache. Real files, real stats, a real git repository.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/fingerprint/hash-file.js';
import { hashCachePath } from '../../src/fingerprint/hash-cache.js';
import { checkProgressMarkers } from '../../src/markers/check-markers.js';
import type { Progress } from '../../src/types.js';
import { gitdir, runCli, testdir } from '../helpers/fixtures.js';

const HOUR_AGO = new Date(Date.now() - 3600_000);

// A repository with `names` marked done in t1; the files last modified an hour ago unless `fresh`.
function marked(names: string[], fresh = false): { root: string; log: string; progress: Progress } {
  const root = testdir(Object.fromEntries(names.map((n) => [n, `content of ${n}\n`])));
  if (!fresh) for (const n of names) utimesSync(join(root, n), HOUR_AGO, HOUR_AGO);
  const files = Object.fromEntries(names.map((n) => [n, hashFile(join(root, n))!]));
  const progress = {
    version: 1,
    revision: 1,
    plan: [{ id: 't1', title: 'Step', status: 'done' }],
    markers: { t1: { at: '2026-01-01T00:00:00Z', files } },
  } as Progress;
  return { root, log: join(root, '.agent', 'log'), progress };
}

const check = (m: ReturnType<typeof marked>) =>
  checkProgressMarkers(m.root, m.progress, undefined, m.log)[0]!;

// Replaces the cached hash of `name` (to see whether the cache or the file answered).
function tamper(log: string, name: string): void {
  const cache = JSON.parse(readFileSync(hashCachePath(log), 'utf8')) as {
    entries: Record<string, unknown[]>;
  };
  cache.entries[name]![4] = `sha256:${'0'.repeat(64)}`;
  writeFileSync(hashCachePath(log), JSON.stringify(cache));
}

describe('the marker hash cache', () => {
  it('answers from the cache while a file’s stat is unchanged, and reads it again once it changes', () => {
    const m = marked(['a.txt', 'b.txt']);
    expect(check(m).state).toBe('valid');
    tamper(m.log, 'a.txt');
    // Same size, mtime, ctime and inode: the cache is believed (nothing was read).
    expect(check(m)).toMatchObject({ state: 'stale', changed: [{ path: 'a.txt' }] });
    // Any stat change (here a new mtime) and the file is hashed again.
    utimesSync(join(m.root, 'a.txt'), new Date(HOUR_AGO.getTime() + 1000), HOUR_AGO);
    expect(check(m).state).toBe('valid');
  });

  it('finds a changed file of the same size', () => {
    const m = marked(['a.txt', 'b.txt']);
    expect(check(m).state).toBe('valid');
    writeFileSync(join(m.root, 'b.txt'), 'CONTENT OF b.txt\n');
    expect(check(m)).toMatchObject({
      state: 'stale',
      changed: [{ path: 'b.txt', reason: 'changed' }],
    });
  });

  it('never trusts an entry modified just before the cache was written (racily clean)', () => {
    const m = marked(['a.txt'], true);
    expect(check(m).state).toBe('valid');
    tamper(m.log, 'a.txt');
    expect(check(m).state).toBe('valid');
  });

  it('ignores a damaged cache, and finds a deleted file', () => {
    const m = marked(['a.txt', 'b.txt']);
    expect(check(m).state).toBe('valid');
    writeFileSync(hashCachePath(m.log), '{"version": 1, "at": ');
    expect(check(m).state).toBe('valid');
    writeFileSync(join(m.root, 'a.txt'), '');
    expect(check(m)).toMatchObject({ state: 'stale', changed: [{ path: 'a.txt' }] });
  });
});

describe('a boot and the hash cache', () => {
  it('hashes a changed file once: the next boot believes the cache while the stat holds', async () => {
    const root = gitdir({ 'a.txt': 'one\n' });
    const log = join(root, '.agent', 'log');
    expect((await runCli(root, ['init', '--goal', 'Cache the hashes', '-q'])).code).toBe(0);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    utimesSync(join(root, 'a.txt'), HOUR_AGO, HOUR_AGO);
    expect((await runCli(root, ['checkpoint', '-q'])).code).toBe(0);
    const drifted = async () =>
      (
        JSON.parse((await runCli(root, ['boot', '--dry-run', '--json'])).stdout) as {
          drifted: boolean;
        }
      ).drifted;
    expect(await drifted()).toBe(false);
    tamper(log, 'a.txt');
    // The stat is the same, so the boot took the (tampered) cached hash: a.txt looks changed.
    expect(await drifted()).toBe(true);
    utimesSync(join(root, 'a.txt'), new Date(HOUR_AGO.getTime() + 1000), HOUR_AGO);
    expect(await drifted()).toBe(false);
  });
});
