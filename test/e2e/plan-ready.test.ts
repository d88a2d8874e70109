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
    await cli(repo, ['plan', 'add', 'Write the lexer', '--id', 'lexer']);
    await cli(repo, ['plan', 'add', 'Write the parser', '--id', 'parser', '--needs', 'lexer']);
    await cli(repo, ['plan', 'add', 'Write the docs', '--id', 'docs']);
    // The spelling of 0.1.0 still works, with several ids after it.
    await cli(repo, [
      'plan',
      'add',
      'Release',
      '--id',
      'release',
      '--depends-on',
      'parser',
      'docs',
    ]);
  });

  it('lists the pending items whose needs are done, in text and JSON', async () => {
    expect((await runCli(repo, ['plan', 'ready'])).stdout).toBe(
      '[ ] lexer  Write the lexer\n[ ] docs   Write the docs\n',
    );
    const ready = await json(['plan', 'ready']);
    expect(ready).toEqual({
      ready: [
        { id: 'lexer', title: 'Write the lexer', status: 'pending' },
        { id: 'docs', title: 'Write the docs', status: 'pending' },
      ],
      waiting: 2,
    });
    await cli(repo, ['done', 'lexer']);
    expect((await json(['plan', 'ready'])).ready).toMatchObject([{ id: 'parser' }, { id: 'docs' }]);
  });

  it('changes an item’s needs later, and clears them', async () => {
    expect(await json(['plan', 'needs', 'docs', 'parser'])).toMatchObject({
      item: { id: 'docs', depends_on: ['parser'] },
      changed: true,
    });
    expect((await json(['plan', 'ready'])).ready).toMatchObject([{ id: 'parser' }]);
    expect((await runCli(repo, ['plan', 'needs', 'docs'])).stdout).toBe(
      'docs now needs nothing: Write the docs\n',
    );
    expect((await runCli(repo, ['plan', 'needs', 'release', 'parser,docs'])).stdout).toBe(
      'release already needed parser, docs: Release\n',
    );
  });

  it('refuses a circle and an unknown need with exit 2, leaving progress.yaml byte for byte', async () => {
    const before = readFileSync(join(repo, PROGRESS));
    const circle = await runCli(repo, ['plan', 'needs', 'parser', 'release']);
    expect(circle.code).toBe(2);
    expect(circle.stderr).toBe(
      "agent-state: the needs would go round in a circle: parser → release → parser (fix: drop one of these needs (`agent-state plan needs ID ...` sets an item's needs))\n",
    );
    const unknown = await runCli(repo, ['plan', 'add', 'Later', '--needs', 'parser,nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no plan item "nope"');
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
  });

  it('status and boot name the ready items', async () => {
    expect((await runCli(repo, ['status'])).stdout).toMatch(
      /^Ready {2}parser Write the parser · docs Write the docs$/m,
    );
    expect((await json(['status'])).ready).toEqual([
      { id: 'parser', title: 'Write the parser' },
      { id: 'docs', title: 'Write the docs' },
    ]);
    for (const level of ['1', '2'])
      expect((await runCli(repo, ['boot', '--level', level])).stdout).toContain(
        'Ready to start: parser Write the parser · docs Write the docs',
      );
    await cli(repo, ['plan', 'start', 'parser']);
    await cli(repo, ['plan', 'start', 'docs']);
    expect((await runCli(repo, ['status'])).stdout).not.toMatch(/^Ready/m);
    expect((await runCli(repo, ['boot', '--level', '1'])).stdout).not.toContain('Ready to start');
  });
});

describe('needs added on two branches', () => {
  it('merge with both sides kept (the merge driver, real git merge)', async () => {
    const repo = await agentRepo('Merge needs from two branches');
    for (const id of ['schema', 'api', 'ui', 'release'])
      await cli(repo, ['plan', 'add', `Build the ${id}`, '--id', id]);
    await cli(repo, ['plan', 'needs', 'release', 'schema']);
    commitAll(repo, 'plan');
    const a = addWorktree(repo, 'a');
    const b = addWorktree(repo, 'b');
    await cli(a, ['plan', 'needs', 'release', 'schema,api']);
    commitAll(a, 'release needs the API');
    await cli(b, ['plan', 'needs', 'release', 'schema', 'ui']);
    commitAll(b, 'release needs the UI');
    expect(gitTry(repo, 'merge', '--no-ff', '-q', '-m', 'merge a', 'a').code).toBe(0);
    const merged = gitTry(repo, 'merge', '--no-ff', '-q', '-m', 'merge b', 'b');
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(unmerged(repo)).toEqual([]);
    const release = readShared(repo).plan!.find((p) => p.id === 'release')!;
    expect([...release.depends_on!].sort()).toEqual(['api', 'schema', 'ui']);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect((await runCli(repo, ['validate'])).code).toBe(0);
  });
});
