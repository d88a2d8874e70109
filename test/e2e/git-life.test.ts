// Git life on a real repository (issue 20): branches that each add plan items, evidence and
// markers, merged in both orders, rebased and cherry-picked, with the merge driver installed as
// docs/multi-agent.md says; refreshing a stale marker with the very command the STALE fix prints
// (a marker over 50,000 files: test/slow/big-marker.test.ts). Real repositories, the real bin,
// git running the driver.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addWorktree,
  agentRepo,
  cli,
  commitAll,
  fixCommand,
  gitTry,
  readShared,
  unmerged,
} from '../helpers/agents.js';
import { git, runCli, writeFiles } from '../helpers/fixtures.js';

interface Added {
  plan: string[];
  evidence: string[];
}

// One branch's work: two plan items (ids chosen by the tool), one finished with a small marker,
// one with a marker over 40 files (kept beside progress.yaml), and two evidence entries.
async function branchWork(dir: string, name: string): Promise<Added> {
  const add = async (title: string) =>
    (JSON.parse(await cli(dir, ['plan', 'add', title, '--json'])) as { item: { id: string } }).item
      .id;
  const first = await add(`${name}: write the parser`);
  const second = await add(`${name}: cover the parser`);
  writeFiles(dir, { [`${name}/parser.txt`]: `${name} parser\n` });
  await cli(dir, ['done', first, '--files', `${name}/parser.txt`]);
  const many = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`${name}/cases/c${i}.txt`, `${name} case ${i}\n`]),
  );
  writeFiles(dir, many);
  await cli(dir, ['done', second, '--files', `${name}/cases/**`]);
  const evidence: string[] = [];
  for (const summary of [`${name} decided`, `${name} measured`]) {
    const out = JSON.parse(
      await cli(dir, ['evidence', 'add', '--kind', 'note', '--summary', summary, '--json']),
    ) as { id: string };
    evidence.push(out.id);
  }
  commitAll(dir, `${name}: two items, two markers, two entries`);
  return { plan: [first, second], evidence };
}

// The front-matter id of every entry file.
function evidenceIds(dir: string): string[] {
  const folder = join(dir, '.agent/state/evidence');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .map((name) => /^id: "?([^"\n]+)"?$/m.exec(readFileSync(join(folder, name), 'utf8'))![1]!);
}

// Everything both branches added is there, with distinct ids, every marker valid, validate clean.
async function expectBoth(dir: string, a: Added, b: Added): Promise<void> {
  expect(unmerged(dir)).toEqual([]);
  const progress = readShared(dir);
  const ids = progress.plan!.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(expect.arrayContaining([...a.plan, ...b.plan]));
  expect(Object.keys(progress.markers!).sort()).toEqual([...a.plan, ...b.plan].sort());
  const entries = evidenceIds(dir);
  expect(new Set(entries).size).toBe(entries.length);
  expect(entries).toEqual(expect.arrayContaining([...a.evidence, ...b.evidence]));
  const check = await runCli(dir, ['check', '--json']);
  expect(check.code, check.stdout + check.stderr).toBe(0);
  const validate = await runCli(dir, ['validate']);
  expect(validate.code, validate.stdout + validate.stderr).toBe(0);
}

describe('two branches from one commit, each adding items, markers and evidence', () => {
  it('merge in both orders, rebase and cherry-pick: no conflict, everything kept with distinct ids', async () => {
    const repo = await agentRepo('Merge what two branches added');
    const wa = addWorktree(repo, 'a');
    const wb = addWorktree(repo, 'b');
    const a = await branchWork(wa, 'alpha');
    const b = await branchWork(wb, 'beta');
    expect(new Set([...a.plan, ...b.plan]).size).toBe(4);
    for (const id of [...a.plan, ...b.plan]) expect(id).toMatch(/^t-[0-9a-z]{5}$/);

    // main merges a, then b.
    for (const branch of ['a', 'b']) {
      const merged = gitTry(repo, 'merge', '--no-ff', '-m', `merge ${branch}`, branch);
      expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    }
    await expectBoth(repo, a, b);

    // The other order, in b's worktree: b merges a.
    const other = gitTry(wb, 'merge', '--no-ff', '-m', 'merge a', 'a');
    expect(other.code, other.stdout + other.stderr).toBe(0);
    await expectBoth(wb, a, b);

    // a rebased onto b's first commit (before b merged a).
    git(wa, 'checkout', '-q', '-b', 'a-rebased', 'a');
    const rebased = gitTry(wa, 'rebase', 'b~1');
    expect(rebased.code, rebased.stdout + rebased.stderr).toBe(0);
    await expectBoth(wa, a, b);

    // Both branches' commits cherry-picked onto the commit they started from.
    git(wa, 'checkout', '-q', '-b', 'picked', 'a~1');
    for (const branch of ['a', 'b~1']) {
      const picked = gitTry(wa, 'cherry-pick', branch);
      expect(picked.code, picked.stdout + picked.stderr).toBe(0);
    }
    await expectBoth(wa, a, b);
  }, 240_000);
});

describe('one big marker recorded again on two branches', () => {
  it('merges without a conflict: the newer marker counts, its list is there, the other is emptied', async () => {
    const repo = await agentRepo('Merge one marker recorded twice');
    const files = (tag: string) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${i}.txt`, `${tag} ${i}\n`]));
    writeFiles(repo, files('base'));
    await cli(repo, ['plan', 'add', 'Everything in src', '--id', 't1']);
    await cli(repo, ['done', 't1', '--files', 'src/**']);
    commitAll(repo, 'done t1');
    const wa = addWorktree(repo, 'a');
    const wb = addWorktree(repo, 'b');
    writeFiles(wa, { 'src/f1.txt': 'a edit\n' });
    await cli(wa, ['done', 't1', '--refresh']);
    commitAll(wa, 'a: t1 again');
    writeFiles(wb, { 'src/f2.txt': 'b edit\n' });
    await cli(wb, ['done', 't1', '--refresh']);
    commitAll(wb, 'b: t1 again');
    // The lists with content: a list git tracks is emptied, not removed, once no marker names it.
    const lists = () =>
      readdirSync(join(repo, '.agent/state/markers')).filter(
        (name) => statSync(join(repo, '.agent/state/markers', name)).size > 0,
      );
    for (const branch of ['a', 'b']) {
      const merged = gitTry(repo, 'merge', '--no-ff', '-m', `merge ${branch}`, branch);
      expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    }
    expect(unmerged(repo)).toEqual([]);
    // Both lists arrived as files of their own, the base's emptied; progress.yaml names b's.
    expect(readdirSync(join(repo, '.agent/state/markers'))).toHaveLength(3);
    expect(lists()).toHaveLength(2);
    const digest = readShared(repo).markers!.t1!.file_list!.sha256;
    expect(lists()).toContain(`t1.${digest.slice(7, 23)}.sha256`);
    // The merged tree has a's edit, which b's marker never saw: STALE, naming it, not the lists.
    const check = await runCli(repo, ['check', 't1']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/STALE\s+t1\s+src\/f1\.txt changed\n/);
    await cli(repo, ['done', 't1', '--refresh']);
    expect((await runCli(repo, ['check', 't1'])).code).toBe(0);
    expect(lists()).toHaveLength(1);
    expect((await runCli(repo, ['validate'])).code).toBe(0);
  }, 120_000);
});

describe('refreshing a stale marker', () => {
  it('every STALE fix runs as printed and restores `check ID` with the same files and globs', async () => {
    const repo = await agentRepo('Keep markers honest');
    writeFiles(repo, { 'src/a.txt': 'a\n', 'src/b.txt': 'b\n', 'lib/c.txt': 'c\n' });
    commitAll(repo, 'files');
    await cli(repo, ['plan', 'add', 'Step four', '--id', 't4']);
    await cli(repo, ['done', 't4', '--files', 'src/*.txt', 'lib/c.txt']);
    commitAll(repo, 'done t4');
    writeFiles(repo, { 'src/a.txt': 'a, edited\n', 'src/new.txt': 'new\n' });

    const check = await runCli(repo, ['check', 't4']);
    expect(check.code).toBe(1);
    const verify = await runCli(repo, ['verify']);
    const boot = await runCli(repo, ['boot', '--level', '3', '--dry-run']);
    const hook = gitTry(repo, 'commit', '-q', '-am', 'edit a');
    for (const text of [
      check.stdout,
      verify.stdout + verify.stderr,
      boot.stdout,
      hook.stderr + hook.stdout,
    ]) {
      expect(text).toContain('agent-state done t4 --refresh');
    }
    const args = fixCommand(check.stdout, 't4');
    const refreshed = await runCli(repo, args);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const after = JSON.parse((await runCli(repo, ['check', 't4', '--json'])).stdout) as {
      ok: boolean;
      markers: { state: string; files: number }[];
    };
    // The same globs again: src/*.txt now also matches src/new.txt.
    expect(after).toMatchObject({ ok: true, markers: [{ state: 'valid', files: 4 }] });
    expect(readShared(repo).markers!.t4!.globs).toEqual(['src/*.txt', 'lib/c.txt']);
  });

  it('`done ID` without files never empties an existing marker', async () => {
    const repo = await agentRepo('Keep markers honest');
    writeFiles(repo, { 'src/a.txt': 'a\n' });
    await cli(repo, ['plan', 'add', 'Step', '--id', 't1']);
    await cli(repo, ['done', 't1', '--files', 'src/a.txt']);
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'));
    const bare = await runCli(repo, ['done', 't1']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('t1 already has a completion marker over 1 file');
    expect(bare.stderr).toContain('agent-state done t1 --refresh');
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'))).toEqual(before);
  });
});
