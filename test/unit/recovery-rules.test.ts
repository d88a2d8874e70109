// The words of recovery (src/recovery/rules.ts), case by case: what counts as a boot in a row,
// progress, a restart loop, and drift that is the agent's own or someone else's.
import type { Drift } from '../../src/fingerprint/diff.js';
import { describe, expect, it } from 'vitest';
import {
  countBoot,
  digestProgress,
  judgeDrift,
  judgePath,
  judgeStale,
  loopHolds,
  NO_OWN_FACTS,
  PROGRESS_PARTS,
  UNRECORDED,
  progressMoved,
  REPEAT_WINDOW_MS,
  type LastBoot,
  type OwnFacts,
  type TreeNow,
} from '../../src/recovery/rules.js';
import type { Progress } from '../../src/types.js';

const EXTRAS = { evidence: { newest: null, count: 0 }, edits: 'e0', head: 'abc' };
const progress = (over: Partial<Progress> = {}) =>
  ({ version: 1, stage: 'build', next_action: 'write tests', plan: [], ...over }) as Progress;
const digest = (over: Partial<Progress> = {}, extras = EXTRAS) =>
  digestProgress(progress(over), extras);

const T0 = '2026-12-01T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const last = (over: Partial<LastBoot> = {}): LastBoot => ({
  at: T0,
  session: 'host-session',
  stalled: 1,
  progress: digest(),
  ...over,
});

describe('progress', () => {
  it('names each part that moved, and every part against no earlier boot', () => {
    expect(progressMoved(digest(), digest())).toEqual([]);
    expect(progressMoved(digest(), digest({ next_action: 'ship it' }))).toEqual(['next_action']);
    expect(progressMoved(digest(), digest({}, { ...EXTRAS, head: 'def', edits: 'e1' }))).toEqual([
      'edits',
      'commits',
    ]);
    expect(progressMoved(null, digest())).toEqual([...PROGRESS_PARTS]);
  });

  it('counts a plan item changing status, and not the order of markers', () => {
    const plan = (status: 'todo' | 'done') =>
      [{ id: 'a', title: 'A', status }] as unknown as Progress['plan'];
    expect(progressMoved(digest({ plan: plan('todo') }), digest({ plan: plan('done') }))).toEqual([
      'plan',
    ]);
    const marker = (at: string) => ({ at, files: {} }) as never;
    const ab = { a: marker(T0), b: marker(T0) };
    const ba = { b: marker(T0), a: marker(T0) };
    expect(progressMoved(digest({ markers: ab }), digest({ markers: ba }))).toEqual([]);
  });
});

describe('countBoot', () => {
  const now = (over: { at?: string; session?: string | null; progress?: Progress } = {}) => ({
    at: over.at ?? later(60_000),
    session: over.session === undefined ? 'host-session' : over.session,
    progress: digestProgress(over.progress ?? progress(), EXTRAS),
  });

  it('starts at 1 on the first boot, and after any progress', () => {
    expect(countBoot(null, now())).toMatchObject({ stalled: 1, repeat: false });
    expect(
      countBoot(last({ stalled: 4 }), now({ progress: progress({ stage: 'review' }) })),
    ).toEqual({ stalled: 1, moved: ['stage'], repeat: false });
  });

  it('adds one for a boot with nothing moved since the previous one', () => {
    expect(countBoot(last({ stalled: 2 }), now())).toEqual({
      stalled: 3,
      moved: [],
      repeat: false,
    });
  });

  it('does not count a resume toward the loop: the session kept its whole conversation', () => {
    const resume = { ...now(), resume: true };
    expect(countBoot(last({ stalled: 2 }), resume)).toEqual({
      stalled: 2,
      moved: [],
      repeat: false,
    });
    // Progress since the last boot ends the row all the same; a first boot that is a resume
    // starts none.
    const moved = { ...now({ progress: progress({ stage: 'review' }) }), resume: true };
    expect(countBoot(last({ stalled: 2 }), moved)).toMatchObject({ stalled: 0 });
    expect(countBoot(null, resume)).toMatchObject({ stalled: 0 });
  });

  it("does not count the agent's own `boot` right after its host booted it", () => {
    expect(countBoot(last({ stalled: 2 }), now({ session: null }))).toEqual({
      stalled: 2,
      moved: [],
      repeat: true,
    });
  });

  it('counts a CLI boot that is no repeat: after the window, after another CLI boot, or after progress', () => {
    const outside = now({ session: null, at: later(REPEAT_WINDOW_MS) });
    expect(countBoot(last({ stalled: 2 }), outside)).toMatchObject({ stalled: 3, repeat: false });
    expect(countBoot(last({ stalled: 2, session: null }), now({ session: null }))).toMatchObject({
      stalled: 3,
      repeat: false,
    });
    const moved = now({ session: null, progress: progress({ next_action: 'other' }) });
    expect(countBoot(last({ stalled: 2 }), moved)).toMatchObject({ stalled: 1, repeat: false });
    // A clock that went backwards is no evidence of a repeat.
    expect(countBoot(last(), now({ session: null, at: later(-1000) }))).toMatchObject({
      stalled: 2,
      repeat: false,
    });
  });
});

describe('loopHolds', () => {
  it('holds from the threshold on while nothing moves, and ends with any progress', () => {
    expect(loopHolds(last({ stalled: 3 }), digest(), 3)).toBe(true);
    expect(loopHolds(last({ stalled: 2 }), digest(), 3)).toBe(false);
    expect(loopHolds(last({ stalled: 5 }), digest({ next_action: 'moved on' }), 3)).toBe(false);
    expect(loopHolds(null, digest(), 1)).toBe(false);
  });
});

const tree = (states: TreeNow['states'] = {}, mtimes: TreeNow['mtimes'] = {}): TreeNow => ({
  states,
  mtimes,
});
// Facts of an agent whose host hooks record its edits (`recorded`), unless a test says otherwise.
const facts = (over: Partial<OwnFacts> = {}): OwnFacts => ({
  ...NO_OWN_FACTS,
  reflog: true,
  recorded: true,
  ...over,
});
const noCommits = { own: new Set<string>(), foreign: new Set<string>() };
const EDIT_AT = T0;
const EDIT_MS = Date.parse(T0);

describe('judgePath', () => {
  it("is the agent's when the file still holds what its last edit left, or the edit's state is unknown", () => {
    const own = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: 'sha256:1' } } });
    expect(judgePath('src/a.ts', own, tree({ 'src/a.ts': 'sha256:1' }), noCommits)).toEqual({
      path: 'src/a.ts',
      own: true,
      why: 'you edited it',
    });
    const unknown = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: null } } });
    expect(judgePath('src/a.ts', unknown, tree({ 'src/a.ts': 'sha256:9' }), noCommits).own).toBe(
      true,
    );
  });

  it('is foreign when the file changed after the last edit, unless a later shell command of its own ran then', () => {
    const edited = { 'src/a.ts': { at: EDIT_AT, state: 'sha256:1' as const } };
    const now = tree({ 'src/a.ts': 'sha256:2' }, { 'src/a.ts': EDIT_MS + 60_000 });
    expect(judgePath('src/a.ts', facts({ files: edited }), now, noCommits)).toMatchObject({
      own: false,
      why: 'changed after your last edit of it',
    });
    const shell = facts({
      files: edited,
      shellRuns: [{ from: EDIT_MS + 59_000, to: EDIT_MS + 61_000 }],
    });
    expect(judgePath('src/a.ts', shell, now, noCommits)).toMatchObject({
      own: true,
      why: 'written while your shell command ran',
    });
    // A shell command that ended before the edit explains no change after it, even within the
    // slack around its end.
    const before = facts({
      files: edited,
      shellRuns: [{ from: EDIT_MS - 5000, to: EDIT_MS - 1000 }],
    });
    const soon = tree({ 'src/a.ts': 'sha256:2' }, { 'src/a.ts': EDIT_MS + 500 });
    expect(judgePath('src/a.ts', before, soon, noCommits).own).toBe(false);
  });

  it('counts a deleted file as changed after an edit that left content', () => {
    const own = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: 'sha256:1' } } });
    expect(judgePath('src/a.ts', own, tree({ 'src/a.ts': null }), noCommits).own).toBe(false);
    const deleted = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: 'deleted' } } });
    expect(judgePath('src/a.ts', deleted, tree({ 'src/a.ts': null }), noCommits).own).toBe(true);
  });

  it('follows the commits: a file of a commit made elsewhere is foreign even if edited here', () => {
    const own = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: null } } });
    const commits = { own: new Set(['src/b.ts']), foreign: new Set(['src/a.ts']) };
    expect(judgePath('src/a.ts', own, tree(), commits)).toMatchObject({
      own: false,
      why: 'changed by a commit not made here',
    });
    expect(judgePath('src/b.ts', own, tree(), commits)).toMatchObject({
      own: true,
      why: 'in a commit you made here',
    });
    expect(judgePath('src/c.ts', own, tree(), commits)).toMatchObject({
      own: false,
      why: 'no recorded edit of yours',
    });
  });

  it('calls a change unrecorded, not foreign, when no host hook records edits here', () => {
    const none = facts({ recorded: false });
    expect(judgePath('lib/response.js', none, tree(), noCommits)).toEqual({
      path: 'lib/response.js',
      own: false,
      why: UNRECORDED,
    });
    // A commit made elsewhere is evidence all the same.
    const commits = { own: new Set<string>(), foreign: new Set(['lib/response.js']) };
    expect(judgePath('lib/response.js', none, tree(), commits).why).toBe(
      'changed by a commit not made here',
    );
  });

  it('gives a file no edit names to a shell command that ran when it changed (2 s of slack)', () => {
    const own = facts({ shellRuns: [{ from: 10_000, to: 20_000 }] });
    expect(judgePath('out.txt', own, tree({}, { 'out.txt': 21_500 }), noCommits).own).toBe(true);
    expect(judgePath('out.txt', own, tree({}, { 'out.txt': 22_500 }), noCommits).own).toBe(false);
    expect(judgePath('out.txt', own, tree({}, {}), noCommits).own).toBe(false);
  });
});

const modified = (path: string) => ({ path, change: 'modified' as const });

const drift = (over: Partial<Drift> = {}): Drift => ({
  drifted: true,
  since: EDIT_AT,
  head: null,
  branch: null,
  files: [],
  unlisted: [],
  key_files: [],
  runtime: [],
  ...over,
});

describe('judgeDrift', () => {
  it('finds nothing foreign in own edits and own commits', () => {
    const own = facts({
      files: { 'src/a.ts': { at: EDIT_AT, state: 'sha256:1' } },
      commits: ['c1'],
    });
    const verdict = judgeDrift(
      drift({
        head: {
          from: 'c0',
          to: 'c1',
          commits: [{ sha: 'c1', subject: 'add b', files: ['b.ts'] }],
          dropped: 0,
        },
        files: [modified('src/a.ts'), modified('b.ts')],
        key_files: [modified('src/a.ts')],
      }),
      own,
      tree({ 'src/a.ts': 'sha256:1' }),
    );
    expect(verdict.foreign).toBe(false);
    expect(verdict.causes).toEqual([]);
    expect(verdict.ownFiles.map((v) => v.path)).toEqual(['src/a.ts', 'b.ts']);
    expect(verdict.ownCommits).toEqual([{ sha: 'c1', subject: 'add b' }]);
  });

  it('names each foreign cause: branch, commits from elsewhere, files no fact explains', () => {
    const verdict = judgeDrift(
      drift({
        head: {
          from: 'c0',
          to: 'c2',
          commits: [
            { sha: 'c1aaaaaaaa', subject: 'pulled one', files: [] },
            { sha: 'c2bbbbbbbb', subject: 'pulled two', files: [] },
          ],
          dropped: 0,
        },
        branch: { from: 'main', to: 'feature' },
        files: ['a', 'b', 'c', 'd'].map((p) => modified(`${p}.ts`)),
      }),
      facts(),
      tree(),
    );
    expect(verdict.foreign).toBe(true);
    expect(verdict.causes).toEqual([
      'the branch changed (main → feature)',
      '2 commits not made here (c1aaaaa pulled one, c2bbbbb pulled two)',
      '4 files changed that no recorded edit of yours explains (a.ts, b.ts, c.ts and 1 more)',
    ]);
  });

  it('keeps unrecorded files apart: named, but no foreign cause', () => {
    const verdict = judgeDrift(
      drift({ files: [modified('lib/response.js')] }),
      facts({ recorded: false }),
      tree(),
    );
    expect(verdict.foreign).toBe(false);
    expect(verdict.causes).toEqual([]);
    expect(verdict.foreignFiles).toEqual([]);
    expect(verdict.unrecordedFiles.map((f) => f.path)).toEqual(['lib/response.js']);
  });

  it("calls no commit the agent's when the reflog could not be read", () => {
    const verdict = judgeDrift(
      drift({
        head: {
          from: 'c0',
          to: 'c1',
          commits: [{ sha: 'c1', subject: 'x', files: [] }],
          dropped: 0,
        },
      }),
      facts({ commits: ['c1'], reflog: false }),
      tree(),
    );
    expect(verdict.foreignCommits).toEqual([{ sha: 'c1', subject: 'x' }]);
    expect(verdict.foreign).toBe(true);
  });

  it('blames dropped commits on a move (reset, rebase), never on an amend of its own', () => {
    const head = { from: 'c1', to: 'c2', commits: [], dropped: 1 };
    const amend = judgeDrift(drift({ head }), facts({ commits: ['c2'] }), tree());
    expect(amend).toMatchObject({ dropped: 0, foreign: false });
    const reset = judgeDrift(
      drift({ head }),
      facts({ moves: [{ kind: 'reset', subject: 'reset: moving to HEAD~1' }] }),
      tree(),
    );
    expect(reset.dropped).toBe(1);
    expect(reset.causes).toEqual([
      '1 recorded commit no longer in the history (a reset or rebase)',
    ]);
  });

  it("lets the agent's edits explain a changed listing outside git, and nothing else", () => {
    const unlisted = ['the tree listing changed (12 files)', 'something else changed'];
    expect(judgeDrift(drift({ unlisted }), facts(), tree()).unlisted).toEqual(unlisted);
    const edited = facts({ files: { 'a.ts': { at: EDIT_AT, state: null } } });
    expect(judgeDrift(drift({ unlisted }), edited, tree()).unlisted).toEqual([
      'something else changed',
    ]);
  });
});

describe('judgeStale', () => {
  it('keeps the verdict drift gave a file, and judges the rest the same way', () => {
    const own = facts({ files: { 'src/a.ts': { at: EDIT_AT, state: 'sha256:1' } } });
    const now = tree({ 'src/a.ts': 'sha256:1' });
    const verdict = judgeDrift(drift({ files: [modified('src/a.ts')] }), own, now);
    const stale = judgeStale(
      [
        { id: 'mine', changed: [{ path: 'src/a.ts' }] },
        { id: 'mixed', changed: [{ path: 'src/a.ts' }, { path: 'src/z.ts' }] },
      ],
      verdict,
      own,
      now,
    );
    expect(stale.map((s) => [s.id, s.own])).toEqual([
      ['mine', true],
      ['mixed', false],
    ]);
    expect(stale[1]!.files[1]).toMatchObject({
      path: 'src/z.ts',
      why: 'no recorded edit of yours',
    });
  });
});
