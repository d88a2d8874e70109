// A branch per machine: two clones of one bare remote, each with its own agent, push, pull and
// merge in both orders and end with the same state. git pull runs the driver through the real bin.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli, commitAll, gitTry } from '../helpers/agents.js';
import { git, gitdir, testdir, writeFiles } from '../helpers/fixtures.js';

// What each machine's agent does before they sync: items of its own, a claim, a marker, a status
// change on the shared item (m1 finishes it with a marker, m2 starts it: done with a marker wins),
// a durable note.
async function machineWork(clone: string, agent: string, shared: 'done' | 'start'): Promise<void> {
  const run = (args: string[]) => cli(clone, ['--agent', agent, ...args]);
  for (let i = 1; i <= 5; i++)
    await run(['plan', 'add', `${agent} step ${i}`, '--id', `${agent}-t${i}`]);
  await run(['plan', 'claim', `${agent}-t1`]);
  await run(['plan', 'start', `${agent}-t1`]);
  writeFiles(clone, { [`${agent}.txt`]: `${agent}\n` });
  await run(['done', `${agent}-t2`, '--files', `${agent}.txt`]);
  if (shared === 'done') {
    writeFiles(clone, { 'shared.txt': 'finished\n' });
    await run(['done', 't1', '--files', 'shared.txt']);
  } else await run(['plan', 'start', 't1']);
  await run(['memory', 'add', `${agent} learned something`, '--durable']);
  await run(['next', `${agent} goes on`]);
  commitAll(clone, `${agent} works`);
}

// The state as values: the shared file and every agent's own file.
function stateOf(clone: string): unknown {
  const read = (path: string) => parse(readFileSync(join(clone, path), 'utf8')) as unknown;
  return {
    shared: read('.agent/state/progress.yaml'),
    m1: read('.agent/state/agents/m1/progress.yaml'),
    m2: read('.agent/state/agents/m2/progress.yaml'),
  };
}

function sync(from: string, to: string): void {
  // `from` publishes, `to` pulls (a merge, through the driver) and publishes the merge, `from` pulls it.
  expect(gitTry(from, 'push', '-q', 'origin', 'main').code).toBe(0);
  const pulled = gitTry(to, 'pull', '--no-rebase', '--no-edit', '-q', 'origin', 'main');
  expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
  expect(gitTry(to, 'push', '-q', 'origin', 'main').code).toBe(0);
  expect(gitTry(from, 'pull', '--no-rebase', '--no-edit', '-q', 'origin', 'main').code).toBe(0);
}

describe('two machines, one bare remote', () => {
  it('push, pull and merge in both orders give the same merged state', async () => {
    const seed = gitdir({ 'README.md': '# fixture\n' });
    await cli(seed, ['init', '--goal', 'Two machines, one task']);
    await cli(seed, ['plan', 'add', 'Shared step', '--id', 't1']);
    commitAll(seed, 'agent-state');
    const world = testdir();
    git(world, 'clone', '-q', '--bare', seed, 'remote.git');
    for (const name of ['m1', 'm2']) {
      git(world, 'clone', '-q', 'remote.git', name);
      const clone = join(world, name);
      git(clone, 'config', 'commit.gpgsign', 'false');
      // Relative, so that a copy of this world talks to its own remote.
      git(clone, 'remote', 'set-url', 'origin', '../remote.git');
    }
    // Each machine registers the driver in its own clone (git's attributes and config).
    for (const name of ['m1', 'm2'])
      await cli(join(world, name), ['hooks', 'install', '--hooks', 'pre-commit']);
    await machineWork(join(world, 'm1'), 'm1', 'done');
    await machineWork(join(world, 'm2'), 'm2', 'start');

    // The same two machines, twice: m1 publishes first in one world, m2 in the other.
    const other = testdir();
    cpSync(world, other, { recursive: true });
    // Without the driver the same pull stops on a text conflict: the driver is what merges it.
    const bare = testdir();
    cpSync(world, bare, { recursive: true });
    git(join(bare, 'm2'), 'config', '--remove-section', 'merge.agent-state');
    expect(gitTry(join(bare, 'm1'), 'push', '-q', 'origin', 'main').code).toBe(0);
    const textual = gitTry(join(bare, 'm2'), 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    expect(textual.code, JSON.stringify(textual)).not.toBe(0);
    expect(textual.stdout).toContain(
      'CONFLICT (content): Merge conflict in .agent/state/progress.yaml',
    );

    sync(join(world, 'm1'), join(world, 'm2'));
    sync(join(other, 'm2'), join(other, 'm1'));

    const first = stateOf(join(world, 'm1'));
    expect(stateOf(join(world, 'm2'))).toEqual(first);
    expect(stateOf(join(other, 'm1'))).toEqual(first);
    expect(stateOf(join(other, 'm2'))).toEqual(first);
    const shared = (
      first as {
        shared: {
          plan: { id: string; status: string; claim?: { agent: string } }[];
          markers: object;
          memory: { durable: string[] };
        };
      }
    ).shared;
    expect(shared.plan.map((p) => [p.id, p.status, p.claim?.agent ?? null])).toEqual([
      ['t1', 'done', null],
      ['m1-t1', 'running', 'm1'],
      ['m1-t2', 'done', null],
      ['m1-t3', 'pending', null],
      ['m1-t4', 'pending', null],
      ['m1-t5', 'pending', null],
      ['m2-t1', 'running', 'm2'],
      ['m2-t2', 'done', null],
      ['m2-t3', 'pending', null],
      ['m2-t4', 'pending', null],
      ['m2-t5', 'pending', null],
    ]);
    expect(Object.keys(shared.markers).sort()).toEqual(['m1-t2', 'm2-t2', 't1']);
    expect(shared.memory.durable).toEqual(['m1 learned something', 'm2 learned something']);
    expect(gitTry(join(world, 'm1'), 'status', '--porcelain').stdout).toBe('');
    expect(git(join(world, 'm1'), 'log', '--merges', '--format=%s')).toMatch(
      /^Merge branch 'main' of \.\.\/remote/,
    );
    expect(
      (await cli(join(other, 'm1'), ['validate'])).includes('All state files are valid.'),
    ).toBe(true);
  }, 240_000);
});
