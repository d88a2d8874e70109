// A manual compaction in Codex (`thread/compact/start` through `codex app-server`, what /compact
// does in the TUI) with `integrations.pre_compact: block` and progress since the last checkpoint:
// Codex [0.171] takes only `continue`/`stopReason` from PreCompact (a `decision` is "invalid
// PreCompact hook JSON output" and the compaction goes ahead), so the block must be that shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from './harness/hosts/codex-app-server.js';
import { codex, codexHome } from './harness/hosts/codex.js';
import { hostSession, type HostSession } from './harness/run-host.js';

describe('Codex: PreCompact, with pre_compact: block', () => {
  let s: HostSession;
  let server: AppServer;
  beforeAll(async () => {
    s = await hostSession(codex, { config: { 'integrations.pre_compact': 'block' } });
    server = await startAppServer(s.repo.home, codexHome(s.repo.home), s.repo.dir, {
      STUB_API_KEY: 'sk-stub-key',
    });
  });
  afterAll(async () => {
    await server?.close();
    await s?.close();
  });

  it('stops a manual compaction with the reason, and nothing is recorded as compacted', async () => {
    s.stub.reset([
      {
        toolCalls: [
          {
            name: 'exec_command',
            input: {
              cmd: 'agent-state plan add "Write greet" --id t1 && agent-state plan start t1',
            },
          },
        ],
      },
      { text: 'Started.' },
      { text: 'SUMMARY: should never be asked for.' },
    ]);
    const started = (await server.request('thread/start', {
      cwd: s.repo.dir,
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
    })) as { thread: { id: string } };
    const threadId = started.thread.id;
    const turn = server.waitFor((n) => n.method === 'turn/completed');
    await server.request('turn/start', { threadId, input: [{ type: 'text', text: 'Start' }] });
    await turn;
    expect(s.stub.turns()).toHaveLength(2);

    const hook = server.waitFor(
      (n) =>
        n.method === 'hook/completed' &&
        (n.params.run as { eventName?: string }).eventName === 'preCompact',
    );
    const compactTurn = server.waitFor((n) => n.method === 'turn/completed');
    await server.request('thread/compact/start', { threadId });
    const run = (await hook).params.run as {
      status: string;
      entries: { kind: string; text: string }[];
    };
    await compactTurn;
    expect(run.status).toBe('stopped');
    expect(run.entries).toEqual([
      {
        kind: 'stop',
        text: expect.stringContaining('progress changed since the last checkpoint'),
      },
    ]);
    expect(s.stub.turns()).toHaveLength(2); // the summary was never asked for
    expect(s.repo.events().filter((e) => e.type === 'compaction')).toEqual([]);
  });
});
