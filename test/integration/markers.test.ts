// Completion markers on real temp git repositories: valid → edited → stale → done again → valid,
// deletions and renames, globs resolved through git, and paths confined to the root.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkMarkers } from '../../src/markers/check-markers.js';
import { markDone, markUndone } from '../../src/markers/mark-done.js';
import { initState } from '../../src/state/init.js';
import { addPlanItem } from '../../src/state/plan.js';
import { loadState } from '../../src/task/load-state.js';
import { updateProgress } from '../../src/task/update-progress.js';
import { git, gitdir, runCli, testdir } from '../helpers/fixtures.js';

async function repoWithPlan(files: Record<string, string>): Promise<string> {
  const repo = gitdir(files);
  initState({ cwd: repo });
  await updateProgress(
    (p) => {
      // Ids as 0.1.0 numbered them: they keep working.
      addPlanItem(p, { title: 'Write the parser', id: 't1' });
      addPlanItem(p, { title: 'Decide the format', id: 't2' });
    },
    { cwd: repo },
  );
  return repo;
}

const progressText = (repo: string) =>
  readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');

describe('markDone and checkMarkers', () => {
  let repo: string;
  beforeEach(async () => {
    repo = await repoWithPlan({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'docs/x.md': '# x\n',
      '.gitignore': 'dist/\n',
      'dist/out.js': 'built\n',
    });
  });

  it('goes valid → stale (naming the file) → done again → valid', async () => {
    const done = await markDone('t1', { cwd: repo, files: ['src/*.ts'] });
    expect(Object.keys(done.marker.files!)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(done.marker.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(done.item.status).toBe('done');
    expect(await checkMarkers({ cwd: repo, ids: ['t1'] })).toMatchObject({
      ok: true,
      markers: [{ id: 't1', state: 'valid', files: 2 }],
    });

    writeFileSync(join(repo, 'src/a.ts'), 'export const a = 42;\n');
    const stale = await checkMarkers({ cwd: repo, ids: ['t1'] });
    expect(stale.ok).toBe(false);
    expect(stale.markers[0]).toMatchObject({
      state: 'stale',
      changed: [{ path: 'src/a.ts', reason: 'changed' }],
    });

    const again = await markDone('t1', { cwd: repo, files: ['src/*.ts'] });
    expect(again.replaced).toBe(true);
    expect((await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]?.state).toBe('valid');
  });

  it('a deleted or renamed marked file makes the marker stale', async () => {
    await markDone('t1', { cwd: repo, files: ['src/a.ts', 'src/b.ts'] });
    rmSync(join(repo, 'src/a.ts'));
    git(repo, 'mv', 'src/b.ts', 'src/c.ts');
    expect((await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]).toMatchObject({
      state: 'stale',
      changed: [
        { path: 'src/a.ts', reason: 'deleted' },
        { path: 'src/b.ts', reason: 'deleted' },
      ],
    });
  });

  it('matches untracked files, never ignored ones or .agent/, and globs relative to the cwd', async () => {
    writeFileSync(join(repo, 'src/new.ts'), 'new\n');
    mkdirSync(join(repo, 'dist/sub'), { recursive: true });
    const done = await markDone('t1', { cwd: join(repo, 'src'), files: ['*.ts'] });
    expect(Object.keys(done.marker.files!)).toEqual(['src/a.ts', 'src/b.ts', 'src/new.ts']);
    await expect(markDone('t1', { cwd: repo, files: ['dist/**'] })).rejects.toThrow(
      /no file matches "dist\/\*\*"/,
    );
    await expect(markDone('t1', { cwd: repo, files: ['.agent/**'] })).rejects.toThrow(
      /no file matches/,
    );
    const dir = await markDone('t1', { cwd: repo, files: ['docs'] });
    expect(Object.keys(dir.marker.files!)).toEqual(['docs/x.md']);
  });

  it('reports unverifiable and missing markers; unverifiable is not done unless allowed', async () => {
    await markDone('t2', { cwd: repo, note: 'kept the v1 format' });
    const result = await checkMarkers({ cwd: repo, ids: ['t2', 'nope'] });
    expect(result.markers).toMatchObject([
      { id: 't2', state: 'unverifiable', status: 'done' },
      { id: 'nope', state: 'missing', status: null },
    ]);
    // Issue 3: exit 0 only when every id is done *and still valid*; nothing proves t2 still is.
    expect((await checkMarkers({ cwd: repo, ids: ['t2'] })).ok).toBe(false);
    expect((await checkMarkers({ cwd: repo, ids: ['t2'], allowUnverifiable: true })).ok).toBe(true);
    expect((await runCli(repo, ['check', 't2'])).code).toBe(1);
    expect((await runCli(repo, ['check', 't2', '--allow-unverifiable'])).code).toBe(0);
    // verify has nothing to find in it (it cannot go stale), and says it was not re-checked.
    const verify = await runCli(repo, ['verify']);
    expect(verify.stdout).toMatch(/without files: nothing to re-check/);
    expect(loadState({ cwd: repo }).progress.markers?.t2?.note).toBe('kept the v1 format');
  });

  it('refuses paths outside the root and writes nothing', async () => {
    const outside = testdir({ 'secret.txt': 'x' });
    symlinkSync(outside, join(repo, 'linked'));
    const before = progressText(repo);
    for (const files of [['../outside.ts'], [join(outside, 'secret.txt')], ['src/../../x']]) {
      await expect(markDone('t1', { cwd: repo, files })).rejects.toThrow(/outside the repository/);
    }
    // Through a symlinked directory: git lists the link itself, never what lies behind it.
    await expect(markDone('t1', { cwd: repo, files: ['linked/secret.txt'] })).rejects.toThrow(
      /no file matches/,
    );
    await expect(markDone('t1', { cwd: repo, files: ['linked/*'] })).rejects.toThrow(
      /no file matches/,
    );
    await expect(markDone('t9', { cwd: repo, files: ['src/a.ts'] })).rejects.toThrow(
      /no plan item "t9"/,
    );
    expect(progressText(repo)).toBe(before);
  });

  it('accepts an absolute path inside the root, stored relative', async () => {
    const done = await markDone('t1', { cwd: repo, files: [join(repo, 'src/a.ts')] });
    expect(Object.keys(done.marker.files!)).toEqual(['src/a.ts']);
  });

  it('undone removes the marker and puts the item back to pending', async () => {
    await markDone('t1', { cwd: repo, files: ['src/a.ts'] });
    expect(await markUndone('t1', { cwd: repo })).toMatchObject({
      removed: true,
      item: { status: 'pending' },
    });
    expect(await markUndone('t1', { cwd: repo })).toMatchObject({ removed: false });
    expect((await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]?.state).toBe('missing');
  });
});

describe('`done` on the command line', () => {
  it('records the last test result once a checkpoint ran the test command, and the note', async () => {
    const repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    const command = 'node -e "console.log(\'Tests: 3 passed, 3 total\')"';
    initState({ cwd: repo, test: command });
    await updateProgress((p) => void addPlanItem(p, { title: 'Write the parser', id: 't1' }), {
      cwd: repo,
    });
    // Before any checkpoint no test result is known: the marker has no tests block.
    expect((await runCli(repo, ['done', 't1', '--files', 'src/a.ts'])).code).toBe(0);
    expect(loadState({ cwd: repo }).progress.markers?.t1?.tests).toBeUndefined();

    expect((await runCli(repo, ['checkpoint'])).code).toBe(0);
    const done = await runCli(repo, [
      'done',
      't1',
      '--files',
      'src/a.ts',
      '--note',
      'parser covers the v1 grammar',
    ]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^t1 is done at [0-9a-f]{7}: 1 file recorded \(replaced/);
    const marker = loadState({ cwd: repo }).progress.markers?.t1;
    expect(marker?.tests).toEqual({ command, exit_code: 0, passed: 3, failed: 0 });
    expect(marker?.note).toBe('parser covers the v1 grammar');
    expect(Object.keys(marker?.files ?? {})).toEqual(['src/a.ts']);
    const text = progressText(repo);
    expect(text).toMatch(/\n {4}tests:\n {6}command: .*\n {6}exit_code: 0\n/);
    expect(text).toMatch(/\n {4}note: parser covers the v1 grammar\n/);
  });
});

describe('markers outside git', () => {
  it('resolve globs with a walk and still detect edits', async () => {
    const dir = testdir({ 'lib/x.js': '1\n', 'node_modules/dep/i.js': 'dep\n' });
    initState({ cwd: dir });
    await updateProgress((p) => void addPlanItem(p, { title: 'Lib', id: 't1' }), { cwd: dir });
    const done = await markDone('t1', { cwd: dir, files: ['**/*.js'] });
    expect(done.marker.commit).toBeNull();
    expect(Object.keys(done.marker.files!)).toEqual(['lib/x.js']);
    renameSync(join(dir, 'lib/x.js'), join(dir, 'lib/y.js'));
    expect((await checkMarkers({ cwd: dir })).markers[0]?.state).toBe('stale');
  });
});

// A marker over more than 32 files keeps its list beside progress.yaml; git vouches for the files
// it tracks, so a check reads only what git says changed.
describe('a marker over many files', () => {
  const many = (n: number, tag = '') =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/m/f${i}.ts`, `${tag}${i}\n`]));

  it('keeps its list in .agent/state/markers/ and only a digest in progress.yaml', async () => {
    const odd = 'src/m/back\\slash.ts';
    const repo = await repoWithPlan({ ...many(40), [odd]: 'odd\n' });
    const done = await markDone('t1', { cwd: repo, files: ['src/**'] });
    expect(done.files).toBe(41);
    expect(done.marker.files).toBeUndefined();
    expect(done.marker.file_list).toEqual({ count: 41, sha256: expect.stringMatching(/^sha256:/) });
    expect(done.marker.globs).toEqual(['src/**']);
    const lists = readdirSync(join(repo, '.agent/state/markers'));
    expect(lists).toEqual([`t1.${done.marker.file_list!.sha256.slice(7, 23)}.sha256`]);
    const list = readFileSync(join(repo, '.agent/state/markers', lists[0]!), 'utf8');
    // sha256sum's own format: `sha256sum -c` checks it from the repository root.
    expect(list).toMatch(/^[0-9a-f]{64} {2}src\/m\/f0\.ts$/m);
    // A name with a backslash (or a newline) is escaped as sha256sum does it.
    expect(list.split('\n').find((l) => l.startsWith('\\'))).toMatch(
      /^\\[0-9a-f]{64} {2}src\/m\/back\\\\slash\.ts$/,
    );
    expect(progressText(repo)).not.toContain('src/m/f0.ts');
    expect(await checkMarkers({ cwd: repo, ids: ['t1'] })).toMatchObject({
      ok: true,
      markers: [{ state: 'valid', files: 41 }],
    });
    writeFileSync(join(repo, odd), 'changed\n');
    expect((await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]!.changed).toEqual([
      { path: odd, reason: 'changed' },
    ]);
    writeFileSync(join(repo, odd), 'odd\n');
    // Re-recorded: the old list goes, the new one comes.
    writeFileSync(join(repo, 'src/m/f41.ts'), 'new\n');
    const again = await markDone('t1', { cwd: repo, files: ['src/**'] });
    expect(readdirSync(join(repo, '.agent/state/markers'))).toEqual([
      `t1.${again.marker.file_list!.sha256.slice(7, 23)}.sha256`,
    ]);
    await markUndone('t1', { cwd: repo });
    expect(readdirSync(join(repo, '.agent/state/markers'))).toEqual([]);
  });

  it('finds a change whichever way git sees it: edited, committed, reverted, untracked, deleted', async () => {
    const repo = await repoWithPlan({ ...many(40), 'README.md': 'r\n' });
    writeFileSync(join(repo, 'src/m/new.ts'), 'untracked\n');
    await markDone('t1', { cwd: repo, files: ['src/**'] });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'done t1');
    const state = async () => (await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]!;
    expect(await state()).toMatchObject({ state: 'valid', files: 41 });
    writeFileSync(join(repo, 'src/m/f7.ts'), 'edited\n');
    expect(await state()).toMatchObject({
      state: 'stale',
      changed: [{ path: 'src/m/f7.ts', reason: 'changed' }],
    });
    git(repo, 'commit', '-q', '-am', 'edit f7');
    expect((await state()).changed).toEqual([{ path: 'src/m/f7.ts', reason: 'changed' }]);
    writeFileSync(join(repo, 'src/m/f7.ts'), '7\n');
    git(repo, 'commit', '-q', '-am', 'revert f7');
    expect(await state()).toMatchObject({ state: 'valid' });
    // An unrelated edit does not need the list; a file outside the marker is not its business.
    writeFileSync(join(repo, 'README.md'), 'edited\n');
    expect(await state()).toMatchObject({ state: 'valid' });
    rmSync(join(repo, 'src/m/f3.ts'));
    expect((await state()).changed).toEqual([{ path: 'src/m/f3.ts', reason: 'deleted' }]);
    git(repo, 'checkout', '--', 'src/m/f3.ts');
    expect(await state()).toMatchObject({ state: 'valid' });
    // The local record is only a shortcut: without it every file is hashed, with the same verdict.
    rmSync(join(repo, '.agent/log/marker-lists.json'));
    writeFileSync(join(repo, 'src/m/f9.ts'), 'edited\n');
    expect((await state()).changed).toEqual([{ path: 'src/m/f9.ts', reason: 'changed' }]);
  });

  it('a list lost or damaged makes its marker unverifiable, naming the list and the fix, never valid', async () => {
    const repo = await repoWithPlan(many(40));
    await markDone('t1', { cwd: repo, files: ['src/**'] });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'done t1');
    const state = async () => (await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]!;
    expect(await state()).toMatchObject({ state: 'valid' });
    const list = readdirSync(join(repo, '.agent/state/markers'))[0]!;
    const rel = `.agent/state/markers/${list}`;
    // Damaged while git vouches for every file (the local record): the list is still read.
    writeFileSync(join(repo, rel), readFileSync(join(repo, rel), 'utf8').replace(/^./, '0'));
    expect(await state()).toMatchObject({
      state: 'unverifiable',
      problem: {
        what: `its file list ${rel} does not match its digest in progress.yaml`,
        fix: `restore it (\`git checkout -- ${rel}\`) or record the files again (\`agent-state done t1 --refresh\`)`,
      },
    });
    rmSync(join(repo, rel));
    expect((await state()).problem?.what).toBe(`its file list ${rel} is missing`);
    const check = await runCli(repo, ['check', 't1']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`t1  its file list ${rel} is missing`);
    const verify = await runCli(repo, ['verify']);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('agent-state done t1 --refresh');
    // The fix it names, as printed.
    await markDone('t1', { cwd: repo, refresh: true });
    expect(await state()).toMatchObject({ state: 'valid', files: 40 });
  });

  it('never writes a list out of the repository: a linked markers folder is refused', async () => {
    const repo = await repoWithPlan(many(40));
    const elsewhere = testdir();
    symlinkSync(elsewhere, join(repo, '.agent/state/markers'));
    const before = progressText(repo);
    await expect(markDone('t1', { cwd: repo, files: ['src/**'] })).rejects.toThrow(
      'is a symbolic link',
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(progressText(repo)).toBe(before);
  });

  it('reads a 0.1.0 marker with its files inline, and --refresh moves them beside progress.yaml, losing none', async () => {
    const repo = await repoWithPlan(many(100));
    const files = Object.fromEntries(
      Object.keys(many(100)).map((path) => [
        path,
        `sha256:${createHash('sha256')
          .update(readFileSync(join(repo, path)))
          .digest('hex')}`,
      ]),
    );
    // What agent-state 0.1.0 wrote: every hash inline, no globs.
    await updateProgress(
      (p) => {
        p.plan!.find((i) => i.id === 't1')!.status = 'done';
        p.markers = { t1: { at: '2026-11-30T14:05:00.000Z', files, commit: null } };
      },
      { cwd: repo },
    );
    expect(await checkMarkers({ cwd: repo, ids: ['t1'] })).toMatchObject({
      ok: true,
      markers: [{ state: 'valid', files: 100 }],
    });
    writeFileSync(join(repo, 'src/m/f5.ts'), 'edited\n');
    expect((await checkMarkers({ cwd: repo, ids: ['t1'] })).markers[0]!.changed).toEqual([
      { path: 'src/m/f5.ts', reason: 'changed' },
    ]);
    const refreshed = await markDone('t1', { cwd: repo, refresh: true });
    expect(refreshed.files).toBe(100);
    expect(refreshed.marker.globs).toBeUndefined();
    expect(progressText(repo)).not.toContain('src/m/f5.ts');
    expect(await checkMarkers({ cwd: repo, ids: ['t1'] })).toMatchObject({ ok: true });
    // Its files are gone: refresh refuses and names one, changing nothing.
    rmSync(join(repo, 'src/m/f8.ts'));
    const before = progressText(repo);
    await expect(markDone('t1', { cwd: repo, refresh: true })).rejects.toThrow(
      "t1's file src/m/f8.ts is gone",
    );
    expect(progressText(repo)).toBe(before);
  });

  it('never lets `done ID` alone empty a marker, and --refresh needs a marker', async () => {
    const repo = await repoWithPlan({ 'src/a.ts': 'a\n' });
    await expect(markDone('t1', { cwd: repo, refresh: true })).rejects.toThrow(
      't1 has no completion marker with files to record again',
    );
    await markDone('t1', { cwd: repo, files: ['src/a.ts'] });
    await expect(markDone('t1', { cwd: repo })).rejects.toThrow(
      't1 already has a completion marker over 1 file',
    );
    await expect(markDone('t1', { cwd: repo, refresh: true, files: ['src/a.ts'] })).rejects.toThrow(
      '--refresh records the files the marker already names',
    );
    // The whole tree, from the root, is the glob '' (refreshed as such).
    expect((await markDone('t1', { cwd: repo, files: ['.'] })).marker.globs).toEqual(['']);
    expect((await markDone('t1', { cwd: repo, refresh: true })).files).toBe(1);
    // A marker without files may be replaced by another without files (a note changes).
    await markDone('t2', { cwd: repo, note: 'first' });
    expect((await markDone('t2', { cwd: repo, note: 'second' })).marker.note).toBe('second');
  });
});
