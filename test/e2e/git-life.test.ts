// Git life on a real repository (issue 20): branches that each add plan items, evidence and
// markers, merged in both orders, rebased and cherry-picked, with the merge driver installed as
// docs/multi-agent.md says. Real repositories, the real bin, git running the driver.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addWorktree,
  agentRepo,
  cli,
  commitAll,
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
