// Several agents inside the real Claude Code: the name a host is started with (AGENT_STATE_AGENT)
// reaches both its hooks (the SessionStart boot says who the agent is and what the others hold)
// and the shell commands the agent runs (a claim of another agent's item is refused by name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './harness/host-repo.js';
import { claude } from './harness/hosts/claude.js';
import { allText } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

describe('Claude Code with a named agent', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude);
    s.repo.cli(['plan', 'add', 'Add greet()', '--id', 't1']);
    s.repo.cli(['plan', 'claim', 't1'], { AGENT_STATE_AGENT: 'bob' });
    s.repo.cli(['next', 'Write greet() in src/app.ts'], { AGENT_STATE_AGENT: 'bob' });
  });
  afterAll(() => s?.close());

  it('boots as that agent, shows the others, and its shell commands act as it', async () => {
    const command = `node '${BIN}' plan claim t1; node '${BIN}' plan add "Test greet()" --id alice-t1; node '${BIN}' plan claim alice-t1`;
    const run = await s.run(
      'Start the task',
      [{ toolCalls: [{ name: 'Bash', input: { command, description: 'claim' } }] }, { text: 'ok' }],
      { env: { AGENT_STATE_AGENT: 'alice' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const first = allText(s.stub.turns()[0]!.body);
    expect(first).toContain('You are agent alice; you hold no claim');
    expect(first).toMatch(
      /- bob \([^)]*\): claims t1; next: Write greet\(\) in src\/app\.ts; seen/,
    );
    const second = allText(s.stub.turns()[1]!.body);
    expect(second).toContain('plan item t1 is already claimed by bob');
    expect(second).toContain('alice claimed alice-t1: Test greet()');
    const plan = JSON.parse(s.repo.cli(['plan', 'list', '--json'])) as {
      plan: { id: string; claim?: { agent: string } }[];
    };
    expect(plan.plan.map((p) => [p.id, p.claim?.agent])).toEqual([
      ['t1', 'bob'],
      ['alice-t1', 'alice'],
    ]);
    expect(s.repo.read('.agent/state/agents/alice/progress.yaml')).toContain('agent: alice');
  });
});
