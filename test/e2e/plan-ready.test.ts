// `plan ready` and the needs behind it, through the real bin: what can start now (text and
// --json), changing needs later, refusing a circle or an unknown need (exit 2, nothing written),
// status and boot naming the ready items, and two branches that each added needs merging with both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addWorktree,
  agentRepo,
  cli,
  commitAll,
  gitTry,
  readShared,
  unmerged,
} from '../helpers/agents.js';
import { git, gitdir, runCli } from '../helpers/fixtures.js';

const PROGRESS = '.agent/state/progress.yaml';

describe('plan ready', () => {
  let repo: string;
  const json = async (args: string[]) => {
    const result = await runCli(repo, ['--json', ...args]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    repo = gitdir();
    await cli(repo, ['init', '--goal', 'Ship the parser']);
    await cli(repo, ['plan', 'add', 'Write the lexer']);
    await cli(repo, ['plan', 'add', 'Write the parser', '--needs', 't1']);
    await cli(repo, ['plan', 'add', 'Write the docs']);
    // The spelling of 0.1.0 still works, with several ids after it.
    await cli(repo, ['plan', 'add', 'Release', '--depends-on', 't2', 't3']);
  });

  it('lists the pending items whose needs are done, in text and JSON', async () => {
    expect((await runCli(repo, ['plan', 'ready'])).stdout).toBe(
      '[ ] t1  Write the lexer\n[ ] t3  Write the docs\n',
    );
    const ready = await json(['plan', 'ready']);
    expect(ready).toEqual({
      ready: [
        { id: 't1', title: 'Write the lexer', status: 'pending' },
        { id: 't3', title: 'Write the docs', status: 'pending' },
      ],
      waiting: 2,
    });
    await cli(repo, ['done', 't1']);
    expect((await json(['plan', 'ready'])).ready).toMatchObject([{ id: 't2' }, { id: 't3' }]);
  });

  it('changes an item’s needs later, and clears them', async () => {
    expect(await json(['plan', 'needs', 't3', 't2'])).toMatchObject({
      item: { id: 't3', depends_on: ['t2'] },
      changed: true,
    });
    expect((await json(['plan', 'ready'])).ready).toMatchObject([{ id: 't2' }]);
    expect((await runCli(repo, ['plan', 'needs', 't3'])).stdout).toBe(
      't3 now needs nothing: Write the docs\n',
    );
    expect((await runCli(repo, ['plan', 'needs', 't4', 't2,t3'])).stdout).toBe(
      't4 already needed t2, t3: Release\n',
    );
  });

  it('refuses a circle and an unknown need with exit 2, leaving progress.yaml byte for byte', async () => {
    const before = readFileSync(join(repo, PROGRESS));
    const circle = await runCli(repo, ['plan', 'needs', 't2', 't4']);
    expect(circle.code).toBe(2);
    expect(circle.stderr).toBe(
      "agent-state: the needs would go round in a circle: t2 → t4 → t2 (fix: drop one of these needs (`agent-state plan needs ID ...` sets an item's needs))\n",
    );
    const unknown = await runCli(repo, ['plan', 'add', 'Later', '--needs', 't2,t99']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no plan item "t99"');
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
  });

  it('status and boot name the ready items', async () => {
    expect((await runCli(repo, ['status'])).stdout).toMatch(
      /^Ready {2}t2 Write the parser · t3 Write the docs$/m,
    );
    expect((await json(['status'])).ready).toEqual([
      { id: 't2', title: 'Write the parser' },
      { id: 't3', title: 'Write the docs' },
    ]);
    for (const level of ['1', '2'])
      expect((await runCli(repo, ['boot', '--level', level])).stdout).toContain(
        'Ready to start: t2 Write the parser · t3 Write the docs',
      );
    await cli(repo, ['plan', 'start', 't2']);
    await cli(repo, ['plan', 'start', 't3']);
    expect((await runCli(repo, ['status'])).stdout).not.toMatch(/^Ready/m);
    expect((await runCli(repo, ['boot', '--level', '1'])).stdout).not.toContain('Ready to start');
  });
});

describe('needs added on two branches', () => {
  it('merge with both sides kept (the merge driver, real git merge)', async () => {
    const repo = await agentRepo('Merge needs from two branches');
    for (const title of ['Schema', 'API', 'UI', 'Release']) await cli(repo, ['plan', 'add', title]);
    await cli(repo, ['plan', 'needs', 't4', 't1']);
    commitAll(repo, 'plan');
    const a = addWorktree(repo, 'a');
    const b = addWorktree(repo, 'b');
    await cli(a, ['plan', 'needs', 't4', 't1,t2']);
    commitAll(a, 'release needs the API');
    await cli(b, ['plan', 'needs', 't4', 't1', 't3']);
    commitAll(b, 'release needs the UI');
    expect(gitTry(repo, 'merge', '--no-ff', '-q', '-m', 'merge a', 'a').code).toBe(0);
    const merged = gitTry(repo, 'merge', '--no-ff', '-q', '-m', 'merge b', 'b');
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(unmerged(repo)).toEqual([]);
    const release = readShared(repo).plan!.find((p) => p.id === 't4')!;
    expect([...release.depends_on!].sort()).toEqual(['t1', 't2', 't3']);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect((await runCli(repo, ['validate'])).code).toBe(0);
  });
});
