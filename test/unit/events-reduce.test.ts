import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reduceStatus } from '../../src/events/reduce.js';
import { computeSignals, type SignalThresholds } from '../../src/events/signals.js';
import type { AgentEvent } from '../../src/events/types.js';
import { DEFAULT_CONFIG } from '../../src/state/config.js';
import { compileForbidden } from '../../src/state/forbidden.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const THRESHOLDS: SignalThresholds = { ...DEFAULT_CONFIG.signals, stall_threshold: 3 };

/** Events numbered from 1, a second apart, actor filled in. */
function events(...specs: [type: string, fields?: Record<string, unknown>][]): AgentEvent[] {
  return specs.map(([type, fields], i) => ({
    seq: i + 1,
    at: new Date(T0 + i * 1000).toISOString(),
    type,
    actor: 'tool',
    ...fields,
  }));
}

const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe('reduceStatus', () => {
  it('the seed example: three greps, the last two found nothing → calls 3, streak 2, stop widening', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['tool.finished', { name: 'grep', ok: true, new_results: 2 }],
        ['tool.finished', { name: 'grep', ok: true, new_results: 0 }],
        ['tool.finished', { name: 'grep', ok: true, new_results: 0 }],
      ),
    );
    expect(snapshot.tools.grep).toMatchObject({ calls: 3, failures: 0, no_new_results: 2 });
    expect(snapshot.tool_calls).toBe(3);
    const signals = computeSignals(snapshot, THRESHOLDS, { now: at(1) });
    expect(signals.map((s) => s.id)).toEqual(['search.no_new_results']);
    expect(signals[0]!.message).toMatch(/stop widening the search and read the files you found/);
  });

  it('a result resets the streak; one empty search is not yet a signal', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['tool.finished', { name: 'grep', new_results: 0 }],
        ['tool.finished', { name: 'grep', new_results: 0 }],
        ['tool.finished', { name: 'grep', new_results: 4 }],
        ['tool.finished', { name: 'grep', new_results: 0 }],
      ),
    );
    expect(snapshot.tools.grep!.no_new_results).toBe(1);
    expect(computeSignals(snapshot, THRESHOLDS, { now: at(1) })).toEqual([]);
  });

  it('counts a started call once when it finishes, and a finish without a start as a call', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['tool.started', { name: 'bash' }],
        ['tool.finished', { name: 'bash', ok: true }],
        ['tool.finished', { name: 'bash', ok: true }],
        ['tool.started', { name: 'read' }],
      ),
    );
    expect(snapshot.tools.bash).toMatchObject({ calls: 2, in_flight: 0 });
    expect(snapshot.tools.read).toMatchObject({ calls: 1, in_flight: 1 });
    expect(snapshot.tool_calls).toBe(3);
  });

  it('tracks failures in a row per tool and says to change approach at the threshold', () => {
    const fail = ['tool.finished', { name: 'bash', ok: false }] as [
      string,
      Record<string, unknown>,
    ];
    const log = events(
      ['tool.finished', { name: 'grep', ok: true }],
      fail,
      ['tool.finished', { name: 'bash', ok: true }],
      fail,
      fail,
      fail,
    );
    const snapshot = reduceStatus(null, log);
    expect(snapshot.tools.bash).toMatchObject({ calls: 5, failures: 4, consecutive_failures: 3 });
    const signals = computeSignals(snapshot, THRESHOLDS, { now: at(1) });
    expect(signals).toEqual([
      expect.objectContaining({ id: 'tool.repeated_failures', level: 'stop' }),
    ]);
    expect(signals[0]!.message).toMatch(/bash failed 3 times in a row: change approach/);
  });

  it("drops a tool's streak signal once the agent uses another tool, keeping the counts", () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['tool.finished', { name: 'grep', new_results: 2 }],
        ['tool.finished', { name: 'grep', new_results: 0 }],
        ['tool.finished', { name: 'grep', new_results: 0 }],
        ['tool.started', { name: 'read' }],
      ),
    );
    expect(snapshot.tools.grep!.no_new_results).toBe(2);
    expect(computeSignals(snapshot, THRESHOLDS, { now: at(1) })).toEqual([]);
  });

  it('counts budgets from the budget.set on, and says to wrap up when few calls are left', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['tool.finished', { name: 'read' }],
        ['budget.set', { tool_calls: 4, tokens: 1000 }],
        ['tool.finished', { name: 'read', tokens: 300 }],
        ['usage', { tokens: 650 }],
        ['tool.finished', { name: 'grep' }],
      ),
    );
    expect(snapshot.budget.tool_calls).toEqual({ limit: 4, used: 2 });
    expect(snapshot.budget.tokens).toEqual({ limit: 1000, used: 950 });
    const ids = computeSignals(snapshot, THRESHOLDS, { now: at(1) }).map((s) => s.id);
    expect(ids).toEqual(['budget.tool_calls_low', 'budget.tokens_low']);
  });

  it('keeps the newest verification, the cwd and the permission counts', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['cwd.changed', { cwd: '/repo' }],
        ['verification.finished', { passed: 40, failed: 2, artifact: 'a.log' }],
        ['cwd.changed', { cwd: '/repo/services/payment' }],
        ['verification.finished', { passed: 41, failed: 1, artifact: 'b.log' }],
        ['permission.requested', { permission: 'Bash(npm publish)' }],
        ['permission.denied', { permission: 'Bash(npm publish)' }],
      ),
    );
    expect(snapshot.cwd).toBe('/repo/services/payment');
    expect(snapshot.verification).toMatchObject({
      passed: 41,
      failed: 1,
      artifact: 'b.log',
      seq: 4,
    });
    expect(snapshot.permissions).toEqual({
      requested: 1,
      granted: 0,
      denied: 1,
      last_denied: 'Bash(npm publish)',
    });
  });

  it('ignores unknown types and malformed fields, but counts them as events', () => {
    const snapshot = reduceStatus(
      null,
      events(['future.thing', { name: 'x' }], ['tool.finished', { name: 42 }], ['cwd.changed', {}]),
    );
    expect(snapshot).toMatchObject({ seq: 3, events: 3, tool_calls: 0, cwd: null });
  });

  it('is pure and skips events it already folded (replaying the log changes nothing)', () => {
    const log = events(['tool.finished', { name: 'grep' }], ['tool.finished', { name: 'grep' }]);
    const first = reduceStatus(null, log);
    const frozen = JSON.stringify(first);
    const again = reduceStatus(first, log);
    expect(JSON.stringify(first)).toBe(frozen);
    expect(again).toEqual(first);
  });

  it('folding in pieces equals folding all at once', () => {
    const types = fc.constantFrom(
      ['tool.started', { name: 'bash' }],
      ['tool.finished', { name: 'bash', ok: false }],
      ['tool.finished', { name: 'grep', new_results: 0 }],
      ['tool.finished', { name: 'grep', new_results: 3 }],
      ['checkpoint.created', {}],
      ['boot', {}],
      ['budget.set', { tool_calls: 10 }],
      ['file.modified', { path: 'src/a.ts' }],
      ['verification.finished', { passed: 1, failed: 0 }],
      ['unknown.type', {}],
    );
    fc.assert(
      fc.property(fc.array(types, { maxLength: 60 }), fc.array(fc.nat(60)), (specs, cuts) => {
        const log = events(...(specs as [string, Record<string, unknown>][]));
        const whole = reduceStatus(null, log);
        const points = [...new Set(cuts.map((c) => Math.min(c, log.length)))].sort((a, b) => a - b);
        let piecewise = reduceStatus(null, []);
        let from = 0;
        for (const point of [...points, log.length]) {
          piecewise = reduceStatus(piecewise, log.slice(from, point));
          from = point;
        }
        expect(piecewise).toEqual(whole);
      }),
    );
  });

  it('restores the snapshot carried by log.rotated and goes on from it', () => {
    const before = reduceStatus(null, events(['tool.finished', { name: 'grep' }], ['boot', {}]));
    const after = reduceStatus(null, [
      {
        seq: 3,
        at: at(1).toISOString(),
        type: 'log.rotated',
        actor: 'system',
        previous: 'events.1.jsonl',
        snapshot: before,
      },
      { seq: 4, at: at(2).toISOString(), type: 'tool.finished', actor: 'tool', name: 'grep' },
    ]);
    expect(after.tools.grep!.calls).toBe(2);
    expect(after.boots).toBe(1);
    expect(after.seq).toBe(4);
  });
});

describe('computeSignals', () => {
  it('says a checkpoint is overdue after N tool calls or M minutes of work, and not after one', () => {
    const busy = reduceStatus(
      null,
      events(
        ...Array.from(
          { length: 25 },
          () => ['tool.finished', { name: 'read' }] as [string, Record<string, unknown>],
        ),
      ),
    );
    expect(computeSignals(busy, THRESHOLDS, { now: at(1) }).map((s) => s.id)).toEqual([
      'checkpoint.overdue',
    ]);
    const checkpointed = reduceStatus(busy, [
      { seq: 26, at: at(1).toISOString(), type: 'checkpoint.created', actor: 'system' },
      { seq: 27, at: at(2).toISOString(), type: 'tool.finished', actor: 'tool', name: 'read' },
    ]);
    expect(computeSignals(checkpointed, THRESHOLDS, { now: at(5) })).toEqual([]);
    const late = computeSignals(checkpointed, THRESHOLDS, { now: at(40) });
    expect(late.map((s) => s.message)).toEqual([
      '39 minutes since the last checkpoint: run `agent-state checkpoint` before going on.',
    ]);
  });

  it('flags a modified file under a Forbidden glob, and a restart loop', () => {
    const snapshot = reduceStatus(
      null,
      events(
        ['file.modified', { path: 'src/api/routes.ts' }],
        ['file.modified', { path: 'src/storage/db.ts' }],
        ['boot', {}],
        ['boot', {}],
        ['boot', {}],
      ),
    );
    const forbidden = compileForbidden([
      { text: '`src/storage/**` — frozen interface', globs: ['src/storage/**'] },
    ]);
    const signals = computeSignals(snapshot, THRESHOLDS, { now: at(1), forbidden });
    expect(signals.map((s) => [s.id, s.level])).toEqual([
      ['forbidden.modified', 'stop'],
      ['restart.loop', 'stop'],
    ]);
    expect(signals[0]!.message).toMatch(/^src\/storage\/db.ts is in a Forbidden zone/);
  });

  it('a passing test run or a completed step ends a restart loop', () => {
    const boots = events(
      ['boot', {}],
      ['boot', {}],
      ['boot', {}],
      ['verification.finished', { passed: 3, failed: 0 }],
    );
    expect(computeSignals(reduceStatus(null, boots), THRESHOLDS, { now: at(1) })).toEqual([]);
  });

  it('says the branch or HEAD moved since the last checkpoint (git hooks), until the next one', () => {
    const log = events(
      ['git.checkout', { from: 'a'.repeat(40), to: 'b'.repeat(40), branch: 'main' }],
      ['checkpoint.created', { summary: 'first' }],
      ['git.checkout', { from: 'b'.repeat(40), to: 'c'.repeat(40), branch: 'feature' }],
    );
    // Before the checkpoint: nothing recorded to drift from yet.
    expect(computeSignals(reduceStatus(null, log.slice(0, 1)), THRESHOLDS, { now: at(1) })).toEqual(
      [],
    );
    const switched = reduceStatus(null, log);
    expect(switched.git).toEqual({
      kind: 'checkout',
      branch: 'feature',
      head: 'c'.repeat(40),
      seq: 3,
      at: log[2]!.at,
    });
    expect(computeSignals(switched, THRESHOLDS, { now: at(1) })).toEqual([
      {
        id: 'git.changed',
        key: 'git.changed:3',
        level: 'warn',
        message:
          'Switched to branch feature (cccccccccccc) since the last checkpoint: run `agent-state verify` to see what changed before going on.',
      },
    ]);
    const merged = reduceStatus(
      switched,
      events(['git.merge', { head: 'd'.repeat(40), branch: 'feature', squash: false }]).map(
        (e) => ({ ...e, seq: 4 }),
      ),
    );
    expect(computeSignals(merged, THRESHOLDS, { now: at(1) })[0]!.message).toBe(
      'A merge into feature (dddddddddddd) since the last checkpoint: run `agent-state verify` to see what changed before going on.',
    );
    const after = reduceStatus(
      merged,
      events(['checkpoint.created', { summary: 'second' }]).map((e) => ({ ...e, seq: 5 })),
    );
    expect(computeSignals(after, THRESHOLDS, { now: at(1) })).toEqual([]);
    // Back where the checkpoint left the tree (`git switch -c tmp && git switch main`): the
    // cause is gone, and so is the signal.
    const back = events(
      ['checkpoint.created', { summary: 'x', head: 'b'.repeat(40), branch: 'main' }],
      ['git.checkout', { from: 'b'.repeat(40), to: 'b'.repeat(40), branch: 'tmp' }],
      ['git.checkout', { from: 'b'.repeat(40), to: 'b'.repeat(40), branch: 'main' }],
    );
    expect(
      computeSignals(reduceStatus(null, back.slice(0, 2)), THRESHOLDS, { now: at(1) }),
    ).toHaveLength(1);
    expect(computeSignals(reduceStatus(null, back), THRESHOLDS, { now: at(1) })).toEqual([]);
    // A checkpoint committed with the state (`--commit`): its commit is where the tree stands.
    const committed = events(
      ['checkpoint.created', { head: 'b'.repeat(40), commit: 'e'.repeat(40), branch: 'main' }],
      ['git.checkout', { from: 'e'.repeat(40), to: 'e'.repeat(40), branch: 'main' }],
    );
    expect(computeSignals(reduceStatus(null, committed), THRESHOLDS, { now: at(1) })).toEqual([]);
    // A snapshot cached by an older version (no git field) goes on folding.
    const { git: _dropped, ...old } = switched;
    expect(reduceStatus(old as typeof switched, []).git).toBeNull();
  });
});
