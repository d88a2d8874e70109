import { describe, expect, it } from 'vitest';
import { describeChange, diffFingerprint } from '../../src/fingerprint/diff.js';
import type { Fingerprint } from '../../src/types.js';

const H1 = '1'.repeat(40);
const H2 = '2'.repeat(40);
const hash = (c: string) => `sha256:${c.repeat(64)}`;

function fp(overrides: Partial<Fingerprint> = {}): Fingerprint {
  return {
    at: '2026-01-01T00:00:00.000Z',
    root: '/repo',
    git: { head: H1, branch: 'main', upstream: null, ahead: null, behind: null },
    dirty: {},
    untracked: {},
    overflow: null,
    key_files: {},
    listing: null,
    runtime: { agent_state: '0.1.0', node: 'v20.19.0', platform: 'linux-x64' },
    ...overrides,
  };
}

describe('diffFingerprint', () => {
  it('finds nothing between equal fingerprints (time and root do not count)', () => {
    const drift = diffFingerprint(fp(), fp({ at: '2026-02-01T00:00:00.000Z', root: '/moved' }));
    expect(drift.drifted).toBe(false);
    expect(drift.files).toEqual([]);
  });

  it('compares the dirty and untracked sets when HEAD did not move', () => {
    const recorded = fp({
      dirty: { 'a.ts': hash('a'), 'b.ts': hash('b') },
      untracked: { 'n.ts': hash('n') },
    });
    const current = fp({
      dirty: { 'a.ts': hash('a'), 'b.ts': 'deleted', 'c.ts': hash('c') },
      untracked: { 'x.ts': hash('x') },
    });
    const drift = diffFingerprint(recorded, current, { worktree: { 'n.ts': null } });
    expect(drift.files).toEqual([
      { path: 'b.ts', change: 'deleted' },
      { path: 'c.ts', change: 'modified' },
      { path: 'n.ts', change: 'deleted' },
      { path: 'x.ts', change: 'added' },
    ]);
  });

  it('a file dirty at the checkpoint and committed as it was is not a change', () => {
    const recorded = fp({ dirty: { 'a.ts': hash('a') } });
    const current = fp({ git: { ...fp().git!, head: H2 } });
    const drift = diffFingerprint(recorded, current, {
      history: {
        commits: [{ sha: H2, subject: 'Commit a', files: ['a.ts'] }],
        dropped: 0,
        changes: [{ path: 'a.ts', change: 'modified' }],
      },
      worktree: { 'a.ts': hash('a') },
    });
    expect(drift.files).toEqual([]);
    expect(drift.head?.commits).toEqual([{ sha: H2, subject: 'Commit a', files: ['a.ts'] }]);
  });

  it('lists files changed by new commits and ignores commits that touched only .agent/', () => {
    const current = fp({ git: { ...fp().git!, head: H2 } });
    const drift = diffFingerprint(fp(), current, {
      history: {
        commits: [
          { sha: H2, subject: 'Feature', files: ['src/x.ts'] },
          {
            sha: '3'.repeat(40),
            subject: 'chore(agent-state): checkpoint',
            files: ['.agent/state/progress.yaml'],
          },
        ],
        dropped: 0,
        changes: [
          { path: 'src/x.ts', change: 'modified' },
          { path: '.agent/state/progress.yaml', change: 'modified' },
        ],
      },
    });
    expect(drift.head?.commits?.map((c) => c.subject)).toEqual(['Feature']);
    expect(drift.files).toEqual([{ path: 'src/x.ts', change: 'modified' }]);
  });

  it('names files added, deleted and renamed by commits as git does', () => {
    const current = fp({ git: { ...fp().git!, head: H2 }, dirty: { 'new.ts': hash('e') } });
    const drift = diffFingerprint(fp(), current, {
      history: {
        commits: [{ sha: H2, subject: 'Move', files: ['new.ts', 'gone.ts', 'a.ts', 'b.ts'] }],
        dropped: 0,
        changes: [
          { path: 'new.ts', change: 'added' },
          { path: 'gone.ts', change: 'deleted' },
          { path: 'b.ts', change: 'renamed', from: 'a.ts' },
        ],
      },
    });
    expect(drift.files).toEqual([
      { path: 'b.ts', change: 'renamed', from: 'a.ts' },
      { path: 'gone.ts', change: 'deleted' },
      // Added by a commit and edited since: still a file the checkpoint did not have.
      { path: 'new.ts', change: 'added' },
    ]);
    expect(describeChange(drift.files[0]!)).toBe('renamed from a.ts');
  });

  it('is not drift when every new commit touched only .agent/', () => {
    const current = fp({ git: { ...fp().git!, head: H2 } });
    const drift = diffFingerprint(fp(), current, {
      history: {
        commits: [{ sha: H2, subject: 'state', files: ['.agent/state/progress.yaml'] }],
        dropped: 0,
        changes: [{ path: '.agent/state/progress.yaml', change: 'modified' }],
      },
    });
    expect(drift.drifted).toBe(false);
  });

  it('reports a branch switch, key files, runtime, and what it cannot name', () => {
    const recorded = fp({
      key_files: { 'package.json': hash('1'), 'go.sum': hash('2') },
      overflow: { files: 3000, digest: hash('o') },
    });
    const current = fp({
      git: { ...fp().git!, branch: 'feature' },
      key_files: { 'package.json': hash('9'), 'Cargo.lock': hash('3') },
      overflow: { files: 3001, digest: hash('p') },
      runtime: { agent_state: '0.2.0', node: 'v22.1.0', platform: 'linux-x64' },
    });
    const drift = diffFingerprint(recorded, current);
    expect(drift.branch).toEqual({ from: 'main', to: 'feature' });
    expect(drift.key_files).toEqual([
      { path: 'Cargo.lock', change: 'added' },
      { path: 'go.sum', change: 'deleted' },
      { path: 'package.json', change: 'modified' },
    ]);
    expect(drift.runtime.map((r) => r.field)).toEqual(['agent_state', 'node']);
    expect(drift.unlisted).toHaveLength(1);
  });

  it('says when the recorded HEAD is unknown and when a listing changed outside git', () => {
    const moved = diffFingerprint(fp(), fp({ git: { ...fp().git!, head: H2 } }), { history: null });
    expect(moved.head).toEqual({ from: H1, to: H2, commits: null, dropped: null });
    expect(moved.unlisted[0]).toMatch(/not in this repository/);
    const plain = (digest: string, files: number) =>
      fp({ git: null, listing: { files, digest, truncated: false } });
    const listing = diffFingerprint(plain(hash('a'), 3), plain(hash('b'), 4));
    expect(listing.unlisted[0]).toMatch(/listing changed \(3 → 4 files\)/);
  });
});
