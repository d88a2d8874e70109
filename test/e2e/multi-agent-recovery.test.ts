// Several agents in one worktree boot on their own: each counts its boots and compactions in its
// own local record (recovery.NAME.json), so one agent's restarts never make another agent's boot a
// restart loop, and the host hooks count a compaction for the agent the host was started as.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentRepo, cli } from '../helpers/agents.js';
import { runCli } from '../helpers/fixtures.js';

const record = (repo: string, name: string) =>
  JSON.parse(readFileSync(join(repo, '.agent', 'log', name), 'utf8')) as {
    boots: number;
    stalled_boots: number;
    compactions: number;
    last_boot: string;
  };

describe('boot counters per agent', () => {
  it('alice restarting without progress is a loop for alice only', async () => {
    const repo = await agentRepo();
    await cli(repo, ['--agent', 'bob', 'next', 'Wire the endpoint']);
    for (let i = 0; i < 3; i++) await cli(repo, ['--agent', 'alice', 'boot', '--fast']);
    expect(record(repo, 'recovery.alice.json')).toMatchObject({ boots: 3, stalled_boots: 3 });
    expect(existsSync(join(repo, '.agent', 'log', 'recovery.bob.json'))).toBe(false);

    const bob = await runCli(repo, ['--agent', 'bob', 'boot', '--fast']);
    expect(bob.code, bob.stderr).toBe(0);
    expect(bob.stdout).not.toMatch(/restart loop/);
    expect(record(repo, 'recovery.bob.json')).toMatchObject({ boots: 1, stalled_boots: 1 });
    const alice = await runCli(repo, ['--agent', 'alice', 'boot', '--fast']);
    expect(alice.stdout).toMatch(/restart loop/);
  });

  it('a compaction confirmed by a hook counts for the agent of the host’s environment', async () => {
    const repo = await agentRepo();
    const env = { AGENT_STATE_AGENT: 'carol' };
    for (const hook_event_name of ['PreCompact', 'PostCompact'])
      expect(
        (
          await runCli(repo, ['hook', 'claude'], {
            input: JSON.stringify({ session_id: 's', cwd: repo, hook_event_name, trigger: 'auto' }),
            env,
          })
        ).code,
      ).toBe(0);
    expect(record(repo, 'recovery.carol.json')).toMatchObject({ compactions: 1 });
    expect(existsSync(join(repo, '.agent', 'log', 'recovery.json'))).toBe(false);
  });

  it('a boot counts as being seen: an agent that only boots stays active for the others', async () => {
    const repo = await agentRepo();
    await cli(repo, ['--agent', 'alice', 'next', 'Read the code']);
    // Alice last wrote a day ago; since then she has only booted (a boot writes no state file).
    const own = join(repo, '.agent', 'state', 'agents', 'alice', 'progress.yaml');
    writeFileSync(
      own,
      readFileSync(own, 'utf8').replace(/last_seen: .*/, 'last_seen: 2026-01-01T00:00:00.000Z'),
    );
    const before = JSON.parse(await cli(repo, ['status', '--all', '--json'])) as {
      agents: { agent: string; active: boolean; last_seen: string }[];
    };
    expect(before.agents.find((a) => a.agent === 'alice')).toMatchObject({ active: false });
    await cli(repo, ['--agent', 'alice', 'boot', '--fast']);
    const after = JSON.parse(await cli(repo, ['status', '--all', '--json'])) as typeof before;
    expect(after.agents.find((a) => a.agent === 'alice')).toMatchObject({
      active: true,
      last_seen: record(repo, 'recovery.alice.json').last_boot,
    });
  });
});
