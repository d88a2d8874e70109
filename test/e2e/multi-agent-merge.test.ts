// Many agents, one task, one branch each: the state merges as well as code does. Real worktrees,
// real `git merge`, `git rebase` and `git cherry-pick`, with git running the driver through the
// real bin (registered by `hooks install`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addPlanItem } from '../../src/state/plan.js';
import { updateProgress } from '../../src/task/update-progress.js';
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

// One agent's work on its own branch: 50 plan items, 10 of them claimed and finished with a
// marker over a file it wrote, its own next action. Half the calls go through the CLI (with
// --agent for one agent, AGENT_STATE_AGENT for the other), the bulk through the library.
async function agentWork(dir: string, agent: string, how: 'flag' | 'env'): Promise<void> {
  for (let i = 1; i <= 50; i++)
    await updateProgress((p) => addPlanItem(p, { title: `${agent} step ${i}`, agent }), {
      cwd: dir,
      agent,
    });
  const run = (args: string[]) =>
    how === 'flag'
      ? cli(dir, ['--agent', agent, ...args])
      : cli(dir, args, { AGENT_STATE_AGENT: agent });
  for (let i = 1; i <= 10; i++) {
    const id = `${agent}-t${i}`;
    await run(['plan', 'claim', id]);
    writeFiles(dir, { [`src/${agent}/part${i}.txt`]: `${agent} made part ${i}\n` });
    await run(['done', id, '--files', `src/${agent}/part${i}.txt`]);
  }
  await run(['next', `${agent}: pick the next item`, '--stage', 'implementing']);
  commitAll(dir, `${agent}: 50 items, 10 done`);
}

describe('two agents on two branches, merged with the driver', () => {
  let repo: string;
  let afterA: string;

  beforeAll(async () => {
    repo = await agentRepo();
    const a = addWorktree(repo, 'a');
    const b = addWorktree(repo, 'b');
    await Promise.all([agentWork(a, 'alice', 'flag'), agentWork(b, 'bob', 'env')]);
    expect(git(repo, 'merge', '--no-ff', '-q', '-m', 'merge a', 'a')).toBe('');
    afterA = git(repo, 'rev-parse', 'HEAD').trim();
  }, 240_000);

  it('merges with no conflict: 100 new items, 20 valid markers, each agent’s own file intact, validate passes', async () => {
    const merged = gitTry(repo, 'merge', '--no-ff', '-m', 'merge b', 'b');
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(unmerged(repo)).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const progress = readShared(repo);
    const ids = progress.plan!.map((p) => p.id);
    expect(ids).toHaveLength(100);
    expect(new Set(ids)).toEqual(
      new Set(
        ['alice', 'bob'].flatMap((agent) =>
          Array.from({ length: 50 }, (_, i) => `${agent}-t${i + 1}`),
        ),
      ),
    );
    expect(
      progress
        .plan!.filter((p) => p.status === 'done')
        .map((p) => p.id)
        .sort(),
    ).toEqual(
      ['alice', 'bob']
        .flatMap((agent) => Array.from({ length: 10 }, (_, i) => `${agent}-t${i + 1}`))
        .sort(),
    );
    expect(progress.plan!.some((p) => p.claim)).toBe(false); // done ended every claim
    expect(Object.keys(progress.markers!)).toHaveLength(20);
    const revisionOf = (branch: string) =>
      (parse(git(repo, 'show', `${branch}:.agent/state/progress.yaml`)) as { revision: number })
        .revision;
    expect(progress.revision).toBeGreaterThan(Math.max(revisionOf('a'), revisionOf('b')));

    const verify = JSON.parse((await runCli(repo, ['verify', '--json'])).stdout) as {
      markers: { id: string; state: string }[];
    };
    expect(verify.markers.filter((m) => m.state === 'valid')).toHaveLength(20);

    for (const [agent, branch] of [
      ['alice', 'a'],
      ['bob', 'b'],
    ] as const) {
      const file = `.agent/state/agents/${agent}/progress.yaml`;
      expect(readFileSync(join(repo, file), 'utf8')).toBe(git(repo, 'show', `${branch}:${file}`));
    }
    const validate = await runCli(repo, ['validate']);
    expect(validate.code, validate.stdout).toBe(0);
    expect(validate.stdout).toContain('ok       .agent/state/agents/alice/progress.yaml');
    expect(validate.stdout).toContain('All state files are valid.');
    // Each agent still sees its own next action on the merged state.
    const alice = JSON.parse(await cli(repo, ['--agent', 'alice', 'status', '--json'])) as {
      next_action: string;
    };
    expect(alice.next_action).toBe('alice: pick the next item');
  });

  it('conflicts on the same merge without the driver (a clone that never ran hooks install)', () => {
    const clone = `${repo}-clone`;
    git(repo, 'clone', '-q', repo, clone);
    git(clone, 'checkout', '-q', '-b', 'test', afterA);
    const merged = gitTry(clone, 'merge', '--no-ff', '-m', 'merge b', 'origin/b');
    expect(merged.code).not.toBe(0);
    expect(merged.stdout).toContain(
      'CONFLICT (content): Merge conflict in .agent/state/progress.yaml',
    );
    expect(unmerged(clone)).toEqual(['.agent/state/progress.yaml']);
  });
});

describe('a change no rule decides', () => {
  it('stops the merge with a conflict naming the item and both values; nothing else is lost; validate explains it', async () => {
    const repo = await agentRepo();
    await cli(repo, ['plan', 'add', 'Shared step']);
    commitAll(repo, 'plan');
    const c = addWorktree(repo, 'c');
    const d = addWorktree(repo, 'd');
    await cli(c, ['--agent', 'carol', 'plan', 'add', 'Carol’s item']);
    await cli(c, ['--agent', 'carol', 'plan', 'skip', 't1', '--note', 'not needed']);
    commitAll(c, 'carol skips t1');
    await cli(d, ['--agent', 'dan', 'plan', 'add', 'Dan’s item']);
    await cli(d, ['--agent', 'dan', 'plan', 'fail', 't1']);
    commitAll(d, 'dan fails t1');
    git(repo, 'merge', '-q', '--no-ff', '-m', 'merge c', 'c');
    const merged = gitTry(repo, 'merge', '--no-ff', '-m', 'merge d', 'd');
    expect(merged.code).not.toBe(0);
    expect(merged.stderr).toContain(
      'agent-state merge-driver: .agent/state/progress.yaml: CONFLICT in plan item t1 status: ours skipped, theirs failed',
    );
    expect(unmerged(repo)).toEqual(['.agent/state/progress.yaml']);
    const text = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    expect(text).toContain(
      '<<<<<<< ours (agent-state: plan item t1 status)\n    status: skipped\n=======\n    status: failed\n>>>>>>> theirs (agent-state: plan item t1 status)',
    );
    // Everything else merged: both new items, the note, the revision past both sides.
    expect(text).toContain('id: carol-t1');
    expect(text).toContain('id: dan-t1');
    expect(text).toContain('note: not needed');
    const validate = await runCli(repo, ['validate']);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toMatch(
      /invalid {2}\.agent\/state\/progress\.yaml:\d+:1: unresolved merge conflict in plan item t1 status: ours status: skipped, theirs status: failed \(fix: keep the lines of one side/,
    );
    // Keeping one side finishes the merge.
    writeFileSync(
      join(repo, '.agent/state/progress.yaml'),
      text.replace(/<<<<<<< .*\n(.*\n)=======\n.*\n>>>>>>> .*\n/, '$1'),
    );
    expect((await runCli(repo, ['validate'])).code).toBe(0);
    git(repo, 'add', '.agent/state/progress.yaml');
    expect(gitTry(repo, 'commit', '-q', '--no-edit').code).toBe(0);
    expect(readShared(repo).plan!.map((p) => [p.id, p.status])).toEqual([
      ['t1', 'skipped'],
      ['carol-t1', 'pending'],
      ['dan-t1', 'pending'],
    ]);
  }, 120_000);
});

describe('rebase and cherry-pick', () => {
  it('run the same driver: a rebased branch and a cherry-picked commit keep both sides’ items', async () => {
    const repo = await agentRepo();
    await cli(repo, ['plan', 'add', 'Shared step']);
    commitAll(repo, 'plan');
    const e = addWorktree(repo, 'e');
    const f = addWorktree(repo, 'f');
    await cli(e, ['--agent', 'erin', 'plan', 'add', 'Erin one']);
    commitAll(e, 'erin one');
    await cli(e, ['--agent', 'erin', 'plan', 'add', 'Erin two']);
    commitAll(e, 'erin two');
    await cli(f, ['--agent', 'finn', 'plan', 'add', 'Finn one']);
    await cli(f, ['--agent', 'finn', 'plan', 'start', 't1']);
    commitAll(f, 'finn one');
    await cli(f, ['--agent', 'finn', 'plan', 'add', 'Finn two']);
    commitAll(f, 'finn two');

    const rebased = gitTry(e, 'rebase', 'f');
    expect(rebased.code, rebased.stdout + rebased.stderr).toBe(0);
    expect(readShared(e).plan!.map((p) => [p.id, p.status])).toEqual([
      ['t1', 'running'],
      ['erin-t1', 'pending'],
      ['erin-t2', 'pending'],
      ['finn-t1', 'pending'],
      ['finn-t2', 'pending'],
    ]);

    git(repo, 'checkout', '-q', '-b', 'pick');
    await cli(repo, ['--agent', 'gus', 'plan', 'add', 'Gus one']);
    commitAll(repo, 'gus one');
    const picked = gitTry(repo, 'cherry-pick', 'f~1');
    expect(picked.code, picked.stdout + picked.stderr).toBe(0);
    expect(readShared(repo).plan!.map((p) => [p.id, p.status])).toEqual([
      ['t1', 'running'],
      ['finn-t1', 'pending'],
      ['gus-t1', 'pending'],
    ]);
    expect((await runCli(repo, ['validate'])).code).toBe(0);
  }, 120_000);
});

describe('hooks install / uninstall', () => {
  it('register the driver in git’s attributes and config (or a committed .gitattributes), and remove both', async () => {
    const repo = await agentRepo();
    // Default: git's own info/attributes, shared by the worktrees; the tree stays clean.
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(repo, '.git/info/attributes'), 'utf8')).toContain(
      '.agent/state/**/*.yaml merge=agent-state',
    );
    const wt = addWorktree(repo, 'w');
    for (const [dir, path] of [
      [repo, '.agent/state/progress.yaml'],
      [wt, '.agent/state/agents/x/progress.yaml'],
    ] as const)
      expect(git(dir, 'check-attr', 'merge', path)).toBe(`${path}: merge: agent-state\n`);
    expect(git(repo, 'config', '--get', 'merge.agent-state.driver')).toMatch(
      /merge-driver %O %A %B %P\n$/,
    );
    const status = JSON.parse(await cli(repo, ['hooks', 'status', '--json'])) as {
      merge_driver: { active: boolean };
    };
    expect(status.merge_driver.active).toBe(true);

    // --shared-attributes moves the block to the work tree's .gitattributes, to commit.
    const shared = JSON.parse(
      await cli(repo, ['hooks', 'install', '--shared-attributes', '--json']),
    ) as { merge_driver: { attributes_file: string; attributes: string } };
    expect(shared.merge_driver).toMatchObject({
      attributes_file: '.gitattributes',
      attributes: 'created',
    });
    expect(existsSync(join(repo, '.git/info/attributes'))).toBe(false);
    expect(git(repo, 'check-attr', 'merge', '.agent/state/progress.yaml')).toContain('agent-state');

    const removed = JSON.parse(await cli(repo, ['hooks', 'uninstall', '--json'])) as {
      merge_driver: unknown;
    };
    expect(removed.merge_driver).toEqual({
      attributes_file: '.gitattributes',
      attributes: 'deleted',
      config: 'removed',
      driver: null,
    });
    expect(existsSync(join(repo, '.gitattributes'))).toBe(false);
    expect(gitTry(repo, 'config', '--get', 'merge.agent-state.driver').code).toBe(1);
    expect(git(repo, 'check-attr', 'merge', '.agent/state/progress.yaml')).toContain('unspecified');

    // A .gitattributes of the user's comes back byte for byte.
    writeFileSync(join(repo, '.gitattributes'), '*.png binary\n');
    await cli(repo, ['hooks', 'install', '--shared-attributes']);
    await cli(repo, ['hooks', 'uninstall']);
    expect(readFileSync(join(repo, '.gitattributes'), 'utf8')).toBe('*.png binary\n');
  }, 60_000);
});
