// Codex runs project hooks only in a trusted project, and each hook only once trusted; `codex
// exec` skips the rest without a word [0.171]. `doctor` must say so and name the one command
// that fixes it, `integrate codex` must print that step, and the command must make Codex run them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexHooksList } from './harness/hosts/codex-app-server.js';
import { codexDriver, codexHome } from './harness/hosts/codex.js';
import { allText } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

const untrusted = codexDriver({ trustProject: false, trustHooks: false });

describe('Codex: trust', () => {
  let s: HostSession;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    s = await hostSession(untrusted);
    env = { CODEX_HOME: codexHome(s.repo.home) };
  });
  afterAll(() => s?.close());

  const doctor = () => {
    try {
      return { code: 0, out: s.repo.cli(['doctor'], env) };
    } catch (error) {
      const e = error as { status: number; stdout: string };
      return { code: e.status, out: e.stdout };
    }
  };

  it('integrate prints the trust step, doctor fails with the command, and codex exec runs no hook', async () => {
    expect(s.repo.integrateOutput).toContain('`agent-state integrate codex --trust`');
    const before = doctor();
    expect(before.code).toBe(1);
    expect(before.out).toContain(
      "FAIL  codex trust (.codex/hooks.json): Codex skips agent-state's hooks without a word: this project is not trusted; 6 of 6 hooks are not trusted",
    );
    expect(before.out).toContain('fix: run `agent-state integrate codex --trust`');
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    expect(allText(s.stub.turns()[0]!.body)).not.toContain('# agent-state boot');
    expect(s.repo.events().filter((e) => e.type === 'boot')).toEqual([]);
  });

  it('after the printed command, Codex trusts every hook and the boot arrives', async () => {
    s.repo.cli(['integrate', 'codex', '--trust'], env);
    const hooks = await codexHooksList(s.repo.home, codexHome(s.repo.home), s.repo.dir);
    const ours = hooks.filter((h) => h.command.includes('agent-state'));
    expect(ours).toHaveLength(6);
    expect(ours.map((h) => h.trustStatus)).toEqual(Array(6).fill('trusted'));
    expect(doctor().out).toContain('ok    codex trust (.codex/hooks.json): 6 hooks trusted');
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    expect(allText(s.stub.turns()[0]!.body)).toContain('# agent-state boot');
  });
});
