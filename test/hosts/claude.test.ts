// Claude Code, the pinned version, against the Anthropic Messages stub (test/hosts/versions.json).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude } from './harness/hosts/claude.js';
import { allText } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

describe('Claude Code', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start, and logs a failing command as ok: false', async () => {
    const run = await s.run('Start the task', [
      { toolCalls: [{ name: 'Bash', input: { command: 'echo hi; exit 3', description: 'fail' } }] },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const first = allText(s.stub.turns()[0]!.body);
    expect(first).toContain('SessionStart hook additional context: # agent-state boot');
    expect(first).toContain('`src/storage/**` — frozen interface');
    const events = s.repo.events();
    expect(events.filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
    expect(events.filter((e) => e.type === 'tool.finished')).toMatchObject([
      { name: 'Bash', ok: false },
    ]);
  });
});
