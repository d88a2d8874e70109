// A worktree per agent, and several agents in one worktree: identities, own files, claims across
// worktrees, status --all, the boot's other agents, a local log per worktree, and verify that one
// worktree's work never confuses another's. Real git worktrees, the CLI.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addWorktree, agentRepo, cli, commitAll, readShared } from '../helpers/agents.js';
import { runCli, writeFiles } from '../helpers/fixtures.js';

describe('a worktree per agent', () => {
  let repo: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    repo = await agentRepo();
    await cli(repo, ['plan', 'add', 'Shared step']);
    await cli(repo, ['plan', 'add', 'Another shared step']);
    commitAll(repo, 'plan');
    a = addWorktree(repo, 'alice');
    b = addWorktree(repo, 'bob');
    await cli(a, ['--agent', 'alice', 'plan', 'claim', 't1']);
    await cli(a, ['--agent', 'alice', 'next', 'Write the parser', '--stage', 'implementing']);
    await cli(b, ['plan', 'add', 'Bob’s item'], { AGENT_STATE_AGENT: 'bob' });
    await cli(b, ['plan', 'claim', 'bob-t1'], { AGENT_STATE_AGENT: 'bob' });
    await cli(b, ['next', 'Wire the endpoint'], { AGENT_STATE_AGENT: 'bob' });
  }, 120_000);

  it('refuses a claim or a status change of an item another worktree’s agent holds, naming it', async () => {
    const claim = await runCli(b, ['--agent', 'bob', 'plan', 'claim', 't1']);
    expect(claim.code).toBe(4);
    expect(claim.stderr).toMatch(
      /^agent-state: plan item t1 is already claimed by alice \(claimed (under a minute|\d+m) ago, expires in \d+[mh]\)/,
    );
    const start = await runCli(b, ['--agent', 'bob', 'plan', 'start', 't1']);
    expect(start.code).toBe(4);
    expect(start.stderr).toContain('only alice changes its status');
    const json = await runCli(b, ['--agent', 'bob', 'plan', 'claim', 't1', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'CONFLICT', exit_code: 4, details: { item: 't1', claimed_by: 'alice' } },
    });
    // Nothing was written by the refused runs.
    expect(readShared(b).plan!.find((p) => p.id === 't1')).toEqual({
      id: 't1',
      title: 'Shared step',
      status: 'pending',
    });
    // t2 is free: bob takes it, and alice's worktree refuses her a status change of it.
    await cli(b, ['--agent', 'bob', 'plan', 'claim', 't2']);
    expect((await runCli(a, ['--agent', 'alice', 'plan', 'skip', 't2'])).code).toBe(4);
  });

  it('lists every agent across the worktrees with branch, next action and claims (status --all)', async () => {
    const status = JSON.parse(await cli(repo, ['status', '--all', '--json'])) as {
      agent: string | null;
      worktrees: { path: string; branch: string; state: string; agents: string[] }[];
      agents: {
        agent: string;
        worktree: string;
        branch: string;
        next_action: string;
        claims: { item: string; expired: boolean }[];
        active: boolean;
      }[];
    };
    expect(status.agent).toBeNull();
    expect(status.worktrees.map((w) => [w.path, w.branch, w.state, w.agents])).toEqual([
      [repo, 'main', 'ok', []],
      [a, 'alice', 'ok', ['alice']],
      [b, 'bob', 'ok', ['bob']],
    ]);
    const byName = Object.fromEntries(status.agents.map((x) => [x.agent, x]));
    expect(byName.alice).toMatchObject({
      worktree: a,
      branch: 'alice',
      next_action: 'Write the parser',
      active: true,
    });
    expect(byName.alice!.claims.map((c) => c.item)).toEqual(['t1']);
    expect(byName.bob!.claims.map((c) => c.item)).toEqual(['t2', 'bob-t1']);
    const text = await cli(repo, ['status', '--all']);
    expect(text).toContain('Agents (2 agents in 3 worktrees)');
    expect(text).toMatch(
      /alice\s+active\s+.*-alice \(alice\)\n\s+next: Write the parser · claims t1 · seen just now/,
    );
    expect(text).toContain('t1  claimed by alice');
  });

  it('boots an agent with its own next action first, then one line per other active agent', async () => {
    const boot = await cli(b, ['--agent', 'bob', 'boot', '--level', '1', '--fast', '--dry-run']);
    const next = boot.indexOf('## Next action\nWire the endpoint');
    const agents = boot.indexOf('## Agents\nYou are agent bob; you hold t2, bob-t1');
    expect(next).toBeGreaterThan(0);
    expect(agents).toBeGreaterThan(next);
    expect(boot).toMatch(
      new RegExp(
        `- alice \\(${a.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, branch alice\\): claims t1; next: Write the parser; seen just now`,
      ),
    );
    // Through the fast path with the variable, as a host's SessionStart hook runs it.
    const viaEnv = await runCli(b, ['boot', '--level', '1', '--fast', '--dry-run'], {
      env: { AGENT_STATE_AGENT: 'bob' },
    });
    expect(viaEnv.stdout).toBe(boot);
  });

  it('keeps a local log per worktree and a verify that the other worktrees never confuse', async () => {
    await cli(a, ['--agent', 'alice', 'checkpoint', '--no-test']);
    writeFiles(b, { 'src/bob.js': 'export const bob = 1;\n' });
    commitAll(b, 'bob works');
    await cli(b, ['--agent', 'bob', 'checkpoint', '--no-test']);
    writeFiles(b, { 'src/bob-wip.js': 'export const wip = 1;\n' });
    const verify = await runCli(a, ['--agent', 'alice', 'verify', '--json']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, findings: [] });
    const logA = readFileSync(join(a, '.agent/log/events.jsonl'), 'utf8');
    const logB = readFileSync(join(b, '.agent/log/events.jsonl'), 'utf8');
    expect(logA).not.toBe(logB);
    expect(logB).not.toContain(a);
    expect(existsSync(join(repo, '.agent/state/agents'))).toBe(false); // nobody named worked there
  });
});

describe('several agents in one worktree', () => {
  it('keep their own files, leave the default agent’s keys alone, and show expired claims as expired', async () => {
    const repo = await agentRepo();
    await cli(repo, ['next', 'The default agent’s next action']);
    await cli(repo, ['plan', 'add', 'Shared']);
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    await cli(repo, ['--agent', 'alice', 'next', 'Alice’s next action']);
    await cli(repo, ['--agent', 'alice', 'memory', 'add', 'alice noticed something']);
    await cli(repo, ['--agent', 'alice', 'remind', 'tell bob']);
    // Own keys only: the shared file did not change at all.
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(before);
    const own = readFileSync(join(repo, '.agent/state/agents/alice/progress.yaml'), 'utf8');
    expect(own).toMatch(
      /^# yaml-language-server: \$schema=.*\n(# .*\n)+version: 1\nrevision: 3\nagent: alice\nlast_seen: /,
    );
    expect(own).toContain('next_action: Alice’s next action');
    expect(JSON.parse(await cli(repo, ['next', '--json']))).toMatchObject({
      next_action: 'The default agent’s next action',
    });

    // A claim whose time is long past shows as expired, and another agent takes it over.
    await cli(repo, ['--agent', 'alice', 'plan', 'claim', 't1']);
    const path = join(repo, '.agent/state/progress.yaml');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/at: .*Z/, 'at: 2020-01-01T00:00:00.000Z'),
    );
    expect(await cli(repo, ['plan', 'list'])).toMatch(
      /^\[ \] t1 {2}Shared \(claim by alice expired \d+d ago\)$/m,
    );
    const taken = JSON.parse(
      await cli(repo, ['--agent', 'bob', 'plan', 'claim', 't1', '--json']),
    ) as { action: string; previous: { agent: string; expired: boolean } };
    expect(taken).toMatchObject({ action: 'taken', previous: { agent: 'alice', expired: true } });
    // The default agent may not change bob's item; --force may.
    expect((await runCli(repo, ['plan', 'start', 't1'])).code).toBe(4);
    expect((await runCli(repo, ['plan', 'start', 't1', '--force'])).code).toBe(0);
    const evidence = JSON.parse(
      await cli(repo, [
        '--agent',
        'bob',
        'evidence',
        'add',
        '--kind',
        'note',
        '--summary',
        'bob notes',
        '--json',
      ]),
    ) as { id: string; agent: string };
    expect(evidence.id).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{6}$/);
    expect(evidence.agent).toBe('bob');
    expect(JSON.parse(await cli(repo, ['evidence', 'show', evidence.id, '--json']))).toMatchObject({
      summary: 'bob notes',
    });
  });

  it('refuses a bad name and a claim without a name, changing nothing', async () => {
    const repo = await agentRepo();
    await cli(repo, ['plan', 'add', 'Shared']);
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const flag = await runCli(repo, ['--agent', 'Alice Smith', 'plan', 'claim', 't1']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'agent-state: --agent "Alice Smith" is not a valid agent name (fix: use lowercase letters, digits, dash or underscore (at most 32), starting with a letter or digit)\n',
    );
    const env = await runCli(repo, ['plan', 'claim', 't1'], { env: { AGENT_STATE_AGENT: '../x' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('AGENT_STATE_AGENT "../x" is not a valid agent name');
    const boot = await runCli(repo, ['boot', '--fast'], { env: { AGENT_STATE_AGENT: 'Bad' } });
    expect(boot.code).toBe(2);
    const unnamed = await runCli(repo, ['plan', 'claim', 't1']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(
      'claiming a plan item needs an agent name (fix: pass --agent NAME or set AGENT_STATE_AGENT=NAME',
    );
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(before);
    expect(existsSync(join(repo, '.agent/state/agents'))).toBe(false);
  });

  it('validates an agent’s own file like any state file', async () => {
    const repo = await agentRepo();
    await cli(repo, ['--agent', 'alice', 'next', 'x']);
    const path = join(repo, '.agent/state/agents/alice/progress.yaml');
    writeFileSync(
      path,
      `${readFileSync(path, 'utf8').replace('agent: alice', 'agent: bob')}plan: []\n`,
    );
    const validate = await runCli(repo, ['validate']);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain(
      '.agent/state/agents/alice/progress.yaml:7:8: the own file of agent "alice" says agent: "bob"',
    );
    expect(validate.stdout).toContain('"plan" is shared: it belongs in .agent/state/progress.yaml');
    const next = await runCli(repo, ['--agent', 'alice', 'next', 'y']);
    expect(next.code).toBe(2);
    expect(readFileSync(path, 'utf8')).toContain('agent: bob'); // never rewritten
  });
});
