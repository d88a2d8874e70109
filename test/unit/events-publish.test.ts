import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffStatus, stableHash } from '../../src/events/sections.js';
import {
  publishStatus,
  type PublishCursor,
  type PublishOptions,
} from '../../src/events/publish.js';
import { buildStatusView } from '../../src/status/status-view.js';
import { reduceStatus } from '../../src/events/reduce.js';
import { CLEARED_MESSAGE, renderStatus } from '../../src/events/render.js';
import type { StatusView } from '../../src/events/sections.js';
import type { AgentEvent, StatusSnapshot } from '../../src/events/types.js';
import { DEFAULT_CONFIG } from '../../src/state/config.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
let seq = 0;

function event(type: string, fields: Record<string, unknown> = {}): AgentEvent {
  seq++;
  return { seq, at: new Date(T0 + seq * 1000).toISOString(), type, actor: 'agent', ...fields };
}

function view(snapshot: StatusSnapshot, minutes = 1): StatusView {
  return buildStatusView(snapshot, { now: new Date(T0 + minutes * 60_000), config: DEFAULT_CONFIG })
    .view;
}

const delta = (compactions = 0): PublishOptions => ({
  strategy: 'delta',
  format: 'text',
  consumer: 'test',
  compactions,
});

// The payment-callback session of the status-bar design: tests ran, the agent moved into a service.
function session(): StatusSnapshot {
  seq = 0;
  return reduceStatus(null, [
    event('task.updated', { goal: 'Fix the payment callback signature check', stage: 'testing' }),
    event('task.updated', { next_action: 'Fix test_invalid_signature' }),
    event('cwd.changed', { cwd: '/repo' }),
    event('tool.finished', { name: 'grep', new_results: 2 }),
    event('tool.finished', { name: 'bash', ok: true }),
    event('verification.finished', {
      passed: 41,
      failed: 1,
      artifact: 'artifacts/tests/run-018.log',
    }),
    event('budget.set', { tool_calls: 10 }),
    event('tool.finished', { name: 'read' }),
    event('tool.finished', { name: 'read' }),
  ]);
}

function publishAll(
  cursor: PublishCursor | null,
  snapshot: StatusSnapshot,
  options: PublishOptions,
  minutes = 1,
) {
  return publishStatus(cursor, view(snapshot, minutes), options);
}

describe('publishStatus (delta)', () => {
  it('starts with a full baseline, then publishes only the environment when only the cwd changed', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    expect(first.kind).toBe('baseline');
    expect(first.epoch).toBe(1);
    expect(first.output).toMatch(/^Agent status baseline, epoch 1/);
    for (const label of ['Goal', 'Task', 'Environment', 'Tools', 'Verification', 'Budget'])
      expect(first.output).toContain(`\n${label}: `);

    const moved = reduceStatus(base, [event('cwd.changed', { cwd: '/repo/services/payment' })]);
    const second = publishAll(first.cursor, moved, delta());
    expect(second.kind).toBe('delta');
    expect(second.diff).toMatchObject({ changed: ['environment'], added: [], removed: [] });
    expect(second.output!.split('\n').slice(1)).toEqual([
      'Environment: cwd /repo/services/payment',
    ]);
  });

  it('prints nothing the second time when no event came in, even minutes later', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    const again = publishAll(first.cursor, base, delta(), 9);
    expect(again.output).toBeNull();
    expect(again.kind).toBe('none');
    expect(again.cursorChanged).toBe(false);
  });

  it('says explicitly that a removed section no longer applies', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    const cleaned = structuredClone(base);
    cleaned.verification = null;
    const next = publishAll(first.cursor, cleaned, delta());
    expect(next.diff!.removed).toEqual(['verification']);
    expect(next.output).toContain('Verification: no longer applies.');
  });

  it('publishes the cleared marker when every section was cleared', () => {
    const first = publishAll(null, session(), delta());
    const cleared = publishAll(first.cursor, reduceStatus(null, []), delta());
    expect(cleared.kind).toBe('cleared');
    expect(cleared.output).toBe(CLEARED_MESSAGE);
    expect(CLEARED_MESSAGE).toBe('Current status: none. Earlier status snapshots no longer apply.');
  });

  it('a compaction starts a new epoch with a full baseline, even when nothing else changed', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    const compacted = reduceStatus(base, [event('compaction', { reason: 'auto' })]);
    const next = publishAll(first.cursor, compacted, delta(compacted.compactions));
    expect(next).toMatchObject({ kind: 'baseline', epoch: 2, newEpoch: true });
    expect(next.output).toMatch(/^Agent status baseline, epoch 2/);
    expect(next.output).toContain('Verification: 41 passed, 1 failed');
    const quiet = publishAll(next.cursor, compacted, delta(compacted.compactions));
    expect(quiet.output).toBeNull();
  });

  it('--reset starts a new epoch too', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    const reset = publishAll(first.cursor, base, { ...delta(), reset: true });
    expect(reset).toMatchObject({ kind: 'baseline', epoch: 2 });
  });
});

describe('publishStatus (append, replace)', () => {
  it('append prints the whole status whenever its hash changed, nothing otherwise', () => {
    const options: PublishOptions = { ...delta(), strategy: 'append' };
    const base = session();
    const first = publishAll(null, base, options);
    expect(first.kind).toBe('full');
    expect(publishAll(first.cursor, base, options).output).toBeNull();
    const more = reduceStatus(base, [event('tool.finished', { name: 'grep', new_results: 0 })]);
    const next = publishAll(first.cursor, more, options);
    expect(next.kind).toBe('full');
    expect(next.output).toContain('Goal: Fix the payment callback signature check');
  });

  it('replace marks each snapshot as superseding the earlier ones', () => {
    const options: PublishOptions = { ...delta(), strategy: 'replace', format: 'xml' };
    const first = publishAll(null, session(), options);
    expect(first.kind).toBe('replace');
    expect(first.output).toMatch(/^<agent-status [^>]*kind="replace"/);
    expect(first.output).toContain('This status replaces every earlier agent-status.');
  });

  it('switching strategy starts over with a full publish', () => {
    const base = session();
    const first = publishAll(null, base, delta());
    const switched = publishAll(first.cursor, base, { ...delta(), strategy: 'append' });
    expect(switched).toMatchObject({ kind: 'full', epoch: 2 });
  });
});

describe('diffStatus and stableHash', () => {
  it('sees added, changed and removed sections; equal facts hash equally whatever the key order', () => {
    const a = view(session()).sections;
    const b = structuredClone(a);
    b.environment = null;
    b.permissions = { requested: 1, granted: 1, denied: 0 };
    b.tools = { more: 0, items: [...a.tools!.items].reverse() };
    expect(diffStatus(a, b)).toMatchObject({
      changed: ['tools'],
      added: ['permissions'],
      removed: ['environment'],
      cleared: false,
    });
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reverseKeys(v)]),
            )
          : value;
    const reordered = reverseKeys(a) as typeof a;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(a));
    expect(stableHash(reordered)).toBe(stableHash(a));
    expect(stableHash(b)).not.toBe(stableHash(a));
  });
});

describe('renderStatus', () => {
  it('renders the XML status bar with task, environment, tools, verification, budget and signals', () => {
    const snapshot = reduceStatus(session(), [
      event('tool.finished', { name: 'grep', new_results: 0 }),
      event('tool.finished', { name: 'grep', new_results: 0 }),
    ]);
    const xml = renderStatus(view(snapshot), 'xml');
    expect(xml)
      .toBe(`<agent-status source="agent-state" generated-at="2026-03-01T10:01:00Z" seq="11">
  <task stage="testing">
    <goal>Fix the payment callback signature check</goal>
    <next-action>Fix test_invalid_signature</next-action>
  </task>
  <environment cwd="/repo"/>
  <tools>
    <tool name="grep" calls="3" no-new-results-in-a-row="2"/>
    <tool name="read" calls="2"/>
    <tool name="bash" calls="1"/>
  </tools>
  <verification passed="41" failed="1" artifact="artifacts/tests/run-018.log"/>
  <budget tool-calls="6 of 10 left"/>
  <signals>
    <signal id="search.no_new_results" level="warn">2 calls of grep in a row found nothing new: stop widening the search and read the files you found.</signal>
  </signals>
</agent-status>`);
  });

  it('escapes markup in values', () => {
    const snapshot = reduceStatus(null, [
      {
        seq: 1,
        at: new Date(T0).toISOString(),
        type: 'task.updated',
        actor: 'agent',
        next_action: 'Fix <a href="x">&</a>',
      },
    ]);
    expect(renderStatus(view(snapshot), 'xml')).toContain(
      '<next-action>Fix &lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;</next-action>',
    );
  });

  // o200k measures 3.4–3.7 characters per token on these renderings; 3 is a safe lower bound.
  const tokensAtMost = (text: string) => text.length / 3;

  it('renders a typical status in at most 300 tokens, in every format', () => {
    const typical = reduceStatus(session(), [
      event('tool.finished', { name: 'grep', new_results: 0 }),
      event('tool.finished', { name: 'grep', new_results: 0 }),
      event('checkpoint.created', { summary: 'Parser fixed; 41 of 42 tests pass' }),
    ]);
    for (const format of ['xml', 'text', 'markdown', 'json'] as const) {
      const out = renderStatus(view(typical, 3), format);
      if (process.env.DUMP_STATUS)
        writeFileSync(`${process.env.DUMP_STATUS}-typical.${format}`, out);
      expect(tokensAtMost(out), format).toBeLessThanOrEqual(300);
    }
  });

  it('keeps a status with every section filled under 450 tokens', () => {
    seq = 0;
    const full = reduceStatus(null, [
      event('task.updated', {
        goal: 'Fix the payment callback signature check so that refunds are accepted again',
        stage: 'implementing',
        next_action: 'Make verifySignature use the raw request body instead of the parsed JSON',
      }),
      event('step.started', {
        step: 't3',
        title: 'Fix verifySignature',
        plan: { total: 5, done: 2, running: 1 },
      }),
      event('cwd.changed', { cwd: '/repo/services/payment' }),
      event('tool.finished', { name: 'grep', new_results: 2 }),
      event('tool.finished', { name: 'grep', new_results: 0 }),
      event('tool.finished', { name: 'grep', new_results: 0 }),
      event('tool.finished', { name: 'read' }),
      event('tool.finished', { name: 'edit' }),
      event('tool.finished', {
        name: 'bash',
        ok: false,
        artifact: '.agent/artifacts/bash-0007.log',
      }),
      event('verification.finished', {
        passed: 41,
        failed: 1,
        artifact: '.agent/artifacts/test-018.log',
      }),
      event('budget.set', { tool_calls: 40 }),
      event('permission.requested', { permission: 'Bash(npm publish)' }),
      event('permission.denied', { permission: 'Bash(npm publish)' }),
      event('checkpoint.created', { summary: 'Parser fixed; 41 of 42 tests pass' }),
    ]);
    for (const format of ['xml', 'text', 'markdown', 'json'] as const) {
      const out = renderStatus(view(full, 3), format);
      if (process.env.DUMP_STATUS) writeFileSync(`${process.env.DUMP_STATUS}-full.${format}`, out);
      expect(tokensAtMost(out), format).toBeLessThanOrEqual(450);
    }
  });

  it('bounds a pathological status (long texts, many failing tools, many signals)', () => {
    seq = 0;
    const long = 'word '.repeat(100);
    const busy = reduceStatus(null, [
      event('task.updated', { goal: long, stage: 'implementing', next_action: long }),
      event('step.started', { step: 't7', title: long, plan: { total: 12, done: 6, running: 1 } }),
      event('cwd.changed', { cwd: '/home/dev/projects/payments-service/services/payment/src' }),
      ...['grep', 'read', 'edit', 'bash', 'glob', 'write', 'webfetch', 'task'].flatMap((name) => [
        event('tool.finished', {
          name,
          ok: false,
          new_results: 0,
          artifact: `.agent/artifacts/${name}-output-0001.log`,
        }),
        event('tool.finished', { name, ok: false, new_results: 0 }),
        event('tool.finished', { name, ok: false, new_results: 0 }),
      ]),
      event('verification.finished', {
        passed: 412,
        failed: 3,
        skipped: 2,
        command: 'npm test',
        artifact: '.agent/artifacts/test-run-0042.log',
      }),
      event('budget.set', { tool_calls: 30, tokens: 200000 }),
      event('permission.denied', { permission: 'Bash(npm publish)' }),
      event('checkpoint.created', { summary: long }),
    ]);
    for (const format of ['xml', 'text', 'markdown', 'json'] as const) {
      const out = renderStatus(view(busy, 3), format);
      if (process.env.DUMP_STATUS) writeFileSync(`${process.env.DUMP_STATUS}-busy.${format}`, out);
      expect(tokensAtMost(out), format).toBeLessThanOrEqual(1000);
    }
  });
});
