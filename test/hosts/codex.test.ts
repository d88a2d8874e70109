// Codex, the pinned version, against the OpenAI Responses stub (test/hosts/versions.json).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codex } from './harness/hosts/codex.js';
import { allText } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

describe('Codex', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(codex);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start (as developer context)', async () => {
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    const input = (s.stub.turns()[0]!.body as { input: { role?: string }[] }).input;
    const boot = input.filter((item) => allText(item).includes('# agent-state boot'));
    expect(boot).toHaveLength(1);
    expect(boot[0]!.role).toBe('developer');
    expect(allText(boot[0])).toContain('`src/storage/**` — frozen interface');
    expect(s.repo.events().filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
  });
});
