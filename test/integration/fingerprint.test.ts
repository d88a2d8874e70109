// collectFingerprint on real repositories: what git says is dirty or untracked, hashed; key files;
// the .agent/ folder never included; subdirectories, linked worktrees, and no git at all.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectFingerprint, MAX_LISTED_FILES } from '../../src/fingerprint/collect.js';
import { initState } from '../../src/state/init.js';
import { git, gitdir, testdir } from '../helpers/fixtures.js';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('collectFingerprint', () => {
  it('records HEAD, branch, dirty, staged, deleted and untracked files, and key files', async () => {
    const repo = gitdir({
      'a.txt': 'a\n',
      'b.txt': 'b\n',
      'c.txt': 'c\n',
      'package.json': '{}\n',
      '.gitignore': 'build/\n',
    });
    initState({ cwd: repo, keyFiles: ['package.json', 'config/*.yaml'] });
    writeFileSync(join(repo, 'a.txt'), 'a2\n');
    writeFileSync(join(repo, 'b.txt'), 'b2\n');
    git(repo, 'add', 'b.txt');
    rmSync(join(repo, 'c.txt'));
    mkdirSync(join(repo, 'config'));
    writeFileSync(join(repo, 'config/app.yaml'), 'x: 1\n');
    mkdirSync(join(repo, 'build'));
    writeFileSync(join(repo, 'build/out.js'), 'ignored\n');
    const { fingerprint, warnings } = await collectFingerprint({ cwd: repo });
    expect(warnings).toEqual([]);
    expect(fingerprint.git).toEqual({
      head: git(repo, 'rev-parse', 'HEAD').trim(),
      branch: 'main',
      upstream: null,
      ahead: null,
      behind: null,
    });
    expect(fingerprint.dirty).toEqual({
      'a.txt': sha('a2\n'),
      'b.txt': sha('b2\n'),
      'c.txt': 'deleted',
    });
    expect(fingerprint.untracked).toEqual({ 'config/app.yaml': sha('x: 1\n') });
    expect(fingerprint.key_files).toEqual({
      'package.json': sha('{}\n'),
      'config/app.yaml': sha('x: 1\n'),
    });
    expect(fingerprint.overflow).toBeNull();
    expect(fingerprint.listing).toBeNull();
    expect(fingerprint.runtime.node).toBe(process.version);
  });

  it('is the same from a subdirectory and never includes .agent/', async () => {
    const repo = gitdir({ 'src/deep/x.ts': 'x\n' });
    initState({ cwd: repo });
    writeFileSync(join(repo, 'src/deep/x.ts'), 'y\n');
    const top = (await collectFingerprint({ cwd: repo })).fingerprint;
    const sub = (await collectFingerprint({ cwd: join(repo, 'src/deep') })).fingerprint;
    expect({ ...sub, at: '' }).toEqual({ ...top, at: '' });
    expect(Object.keys(top.untracked)).toEqual([]);
    expect(Object.keys(top.dirty)).toEqual(['src/deep/x.ts']);
  });

  it('works in a linked worktree, on its own branch', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    const linked = join(testdir(), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', linked);
    initState({ cwd: linked });
    writeFileSync(join(linked, 'new.txt'), 'n\n');
    const { fingerprint } = await collectFingerprint({ cwd: linked });
    expect(fingerprint).not.toHaveProperty('root');
    expect(fingerprint.git?.branch).toBe('feature');
    expect(fingerprint.untracked).toEqual({ 'new.txt': sha('n\n') });
  });

  it('records large files by size and time, and summarizes files beyond the listing limit', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    initState({ cwd: repo });
    writeFileSync(
      join(repo, '.agent/config.yaml'),
      'version: 1\nfingerprint:\n  max_hash_bytes: 10\n',
    );
    writeFileSync(join(repo, 'big.bin'), 'x'.repeat(100));
    mkdirSync(join(repo, 'many'));
    for (let i = 0; i < MAX_LISTED_FILES + 5; i++)
      writeFileSync(join(repo, 'many', `f${String(i).padStart(5, '0')}`), '');
    const { fingerprint, warnings } = await collectFingerprint({ cwd: repo });
    expect(fingerprint.untracked['big.bin']).toMatch(/^size:100 mtime:\d{4}-\d\d-\d\dT/);
    expect(Object.keys(fingerprint.untracked)).toHaveLength(MAX_LISTED_FILES);
    expect(fingerprint.overflow?.files).toBe(6);
    expect(warnings[0]?.message).toMatch(/6 more changed files/);
  });

  it('hashes a file larger than one read in chunks, and a symlink by its link text', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    initState({ cwd: repo });
    const big = 'abcdefghij'.repeat(300_000); // 3 MB: read in 1 MiB chunks
    writeFileSync(join(repo, 'big.txt'), big);
    symlinkSync('/etc/passwd', join(repo, 'link'));
    const { fingerprint } = await collectFingerprint({ cwd: repo });
    expect(fingerprint.untracked['big.txt']).toBe(sha(big));
    expect(fingerprint.untracked['link']).toBe(sha('/etc/passwd'));
  });

  it('outside git: key files and a listing digest, with a warning', async () => {
    const dir = testdir({ 'package.json': '{}\n', 'src/a.js': 'a\n' });
    initState({ cwd: dir });
    const first = await collectFingerprint({ cwd: dir });
    expect(first.fingerprint.git).toBeNull();
    expect(first.fingerprint.key_files).toEqual({ 'package.json': sha('{}\n') });
    expect(first.fingerprint.listing).toMatchObject({ files: 2, truncated: false });
    expect(first.warnings[0]?.message).toMatch(/not a git repository/);
    writeFileSync(join(dir, 'src/b.js'), 'b\n');
    const second = await collectFingerprint({ cwd: dir });
    expect(second.fingerprint.listing?.digest).not.toBe(first.fingerprint.listing?.digest);
  });
});
