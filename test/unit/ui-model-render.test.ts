// The page's model and its HTML, from an in-memory Task Context: every section shows what the
// state holds, hostile text stays text, the live page's sections depend only on the facts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reduceStatus } from '../../src/events/reduce.js';
import type { AgentEvent } from '../../src/events/types.js';
import type { MarkerCheck } from '../../src/markers/check-markers.js';
import { DEFAULT_CONFIG } from '../../src/state/config.js';
import { compileForbidden } from '../../src/state/forbidden.js';
import { parseGoals } from '../../src/state/goals.js';
import { parseProgress } from '../../src/state/progress.js';
import { buildUiModel, restoreCommands, type UiInput } from '../../src/ui/build-model.js';
import { escapeHtml } from '../../src/ui/html.js';
import { renderDrift } from '../../src/ui/render-recovery.js';
import { SECRETS } from '../helpers/secrets.js';
import { describeEvent } from '../../src/ui/describe-event.js';
import {
  SECTION_IDS,
  contentSecurityPolicy,
  renderPage,
  renderSections,
} from '../../src/ui/render-page.js';

const HOSTILE = '<img src=x onerror=alert(1)>\u001b[31m';

const GOALS = `# Todo API

Add pagination ${HOSTILE} without touching storage.

## Constraints

- Keep the \`page\` default at 50

## Forbidden

- \`src/storage/**\` — frozen
- \`*.pem\` and \`secrets/\`: never

## Non-goals

- Cursor pagination
`;

const PROGRESS = `version: 1
revision: 7
stage: implementing
next_action: "Wire paginate() </script><script>alert(2)</script>"
plan:
  - id: t1
    title: Write the test
    status: done
  - id: t2
    title: Implement it
    status: running
    note: half done
  - id: t3
    title: Document it
    status: pending
    depends_on: [t2]
current_step:
  id: t2
  objective: Implement it
  allowed_tools: [Read, Edit]
  denied_tools: [WebFetch]
  file_scopes: ["src/**"]
markers:
  t1:
    at: 2026-01-01T00:00:00.000Z
    files:
      test/p.test.js: sha256:${'0'.repeat(64)}
    commit: abc123
stamp:
  recent_next_actions:
    - { text: Write the test, at: "2026-01-01T00:00:00Z" }
    - { text: "Wire paginate() </script><script>alert(2)</script>", at: "2026-01-01T00:01:00Z" }
`;

function events(): AgentEvent[] {
  const list: Omit<AgentEvent, 'seq'>[] = [
    { at: '2026-01-01T00:00:01Z', type: 'task.created', actor: 'system', goal: 'Add pagination' },
    {
      at: '2026-01-01T00:00:02Z',
      type: 'tool.finished',
      actor: 'tool',
      name: 'grep',
      new_results: 0,
    },
    {
      at: '2026-01-01T00:00:03Z',
      type: 'tool.finished',
      actor: 'tool',
      name: 'grep',
      new_results: 0,
    },
    {
      at: '2026-01-01T00:00:04Z',
      type: 'checkpoint.created',
      actor: 'system',
      summary: 'first',
      commit: 'c0ffee1234567890',
      head: 'beef',
    },
    { at: '2026-01-01T00:00:05Z', type: 'file.modified', actor: 'tool', path: 'src/storage/db.js' },
    { at: '2026-01-01T00:00:06Z', type: 'tool.finished', actor: 'tool', name: 'bash', ok: false },
    {
      at: '2026-01-01T00:00:07Z',
      type: 'boot',
      actor: 'system',
      level: 2,
      source: 'compact',
      omitted: [
        {
          kind: 'evidence_body',
          count: 3,
          ids: ['000001', '000002'],
          how: 'agent-state evidence show ID',
        },
      ],
    },
    { at: '2026-01-01T00:00:08Z', type: 'custom.thing', actor: 'agent', note: HOSTILE },
  ];
  return list.map((e, i) => ({ ...e, seq: i + 1 }) as AgentEvent);
}

function progressFixture() {
  const parsed = parseProgress(PROGRESS, 'progress.yaml');
  expect(parsed.problems).toEqual([]);
  return parsed.value!;
}

function input(overrides: Partial<UiInput> = {}): UiInput {
  const goals = parseGoals(GOALS).goals;
  const progress = progressFixture();
  const log = events();
  const stale: MarkerCheck = {
    id: 't1',
    state: 'stale',
    changed: [{ path: 'test/p.test.js', reason: 'changed' }],
    status: 'done',
    at: '2026-01-01T00:00:00.000Z',
    files: 1,
  };
  return {
    now: new Date('2026-01-01T01:00:00Z'),
    root: '/repo',
    generator: 'agent-state 0.0.0-test',
    goals,
    progress,
    config: DEFAULT_CONFIG,
    problems: [],
    warnings: [],
    evidence: [
      {
        id: '000001',
        at: '2026-01-01T00:00:00Z',
        kind: 'test',
        summary: `Tests ${HOSTILE}`,
        body: `line 1\n${HOSTILE}`,
        file: '.agent/state/evidence/000001-tests.md',
        refs: [{ path: '.agent/artifacts/t.log', sha256: 'sha256:aa', bytes: 12 }],
      },
    ],
    presentArtifacts: new Set(['.agent/artifacts/t.log']),
    report: { markers: [stale], drift: null, findings: [], last_checkpoint: null },
    log: {
      snapshot: reduceStatus(null, log),
      recent: [...log].reverse(),
      olderExist: false,
      checkpoints: log.filter((e) => e.type === 'checkpoint.created').reverse(),
      lastBoot: log.filter((e) => e.type === 'boot').pop() ?? null,
      warnings: [],
    },
    timeline: { events: [...log].reverse(), more: false, types: [] },
    forbidden: compileForbidden(goals.forbidden),
    ...overrides,
  };
}

const LIVE = { mode: 'live' as const, artifactHref: (p: string) => `/artifact?path=${p}` };
const STATIC = { mode: 'static' as const, artifactHref: (p: string) => `../${p}` };

describe('buildUiModel', () => {
  const model = buildUiModel(input());

  it('holds the goal layer, the plan with markers and owners, and the current step', () => {
    expect(model.goal?.anchor).toContain('Add pagination');
    expect(model.goal?.forbidden.flatMap((f) => f.globs)).toEqual([
      'src/storage/**',
      '*.pem',
      'secrets/',
    ]);
    expect(model.plan.map((i) => [i.id, i.status, i.current])).toEqual([
      ['t1', 'done', false],
      ['t2', 'running', true],
      ['t3', 'pending', false],
    ]);
    expect(model.plan[0]!.marker).toMatchObject({ state: 'stale', commit: 'abc123' });
    expect(model.plan[2]!.depends_on).toEqual(['t2']);
    expect(model.now.step).toMatchObject({
      allowed_tools: ['Read', 'Edit'],
      denied_tools: ['WebFetch'],
    });
    // The newest next-action record is the next action itself: not listed again.
    expect(model.now.recent_next_actions.map((r) => r.text)).toEqual(['Write the test']);
  });

  it('computes the signals of the snapshot (a Forbidden edit, searches that found nothing)', () => {
    expect(model.signals.map((s) => s.id)).toContain('forbidden.modified');
    expect(model.signals.find((s) => s.id === 'forbidden.modified')?.message).toContain(
      'src/storage/db.js',
    );
  });

  it('describes the last boot, the checkpoints with their restore commands, the timeline', () => {
    expect(model.boot).toMatchObject({ seq: 7, level: 2, source: 'compact' });
    expect(model.boot?.omitted?.[0]).toMatchObject({ kind: 'evidence_body', count: 3 });
    expect(model.checkpoints[0]).toMatchObject({ commit: 'c0ffee1234567890', head: 'beef' });
    expect(model.checkpoints[0]!.restore[0]!.command).toBe(
      'git restore --source c0ffee1234567890 -- .agent/state',
    );
    expect(model.timeline.events.map((e) => e.seq)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(model.timeline.events.find((e) => e.seq === 5)?.kind).toBe('forbidden');
    expect(model.timeline.events.find((e) => e.seq === 6)?.kind).toBe('failure');
  });

  it('shows the owner of a claimed item when the plan carries one', () => {
    const progress = progressFixture();
    (progress.plan![1] as unknown as Record<string, unknown>).owner = 'agent-b';
    expect(buildUiModel(input({ progress })).plan[1]!.owner).toBe('agent-b');
  });

  it('redacts secrets that a state file or an event still holds (written before redaction)', () => {
    const key = SECRETS.github_token!;
    const progress = progressFixture();
    progress.next_action = `Use ${key} to push`;
    const log = input().log;
    const leaky: AgentEvent = {
      seq: 9,
      at: 'x',
      type: 'error',
      actor: 'tool',
      message: `failed with ${key}`,
    };
    const model = buildUiModel(
      input({ progress, timeline: { events: [leaky, ...log.recent], more: false, types: [] } }),
    );
    const page = renderPage(model, STATIC);
    expect(page).not.toContain(key);
    expect(JSON.stringify(model)).not.toContain(key);
    expect(model.now.next_action).toMatch(/^Use .*REDACTED.* to push$/);
  });

  it('still shows what it can when the state files are invalid', () => {
    const broken = buildUiModel(
      input({
        goals: null,
        progress: null,
        report: null,
        problems: [
          { at: 'progress.yaml:3:1', file: 'progress.yaml', message: 'bad', hint: 'fix it' },
        ],
      }),
    );
    expect(broken.problems).toHaveLength(1);
    expect(broken.plan).toEqual([]);
    expect(broken.timeline.events).toHaveLength(8);
    expect(renderPage(broken, STATIC)).toContain('progress.yaml:3:1');
  });
});

describe('renderDrift', () => {
  const finding = { kind: 'stale', message: 'marker `t1` is STALE', fix: 'agent-state check t1' };
  const drift = (checkpoint_at: string | null) =>
    String(
      renderDrift({
        ...buildUiModel(input()),
        drift: { ...buildUiModel(input()).drift, checkpoint_at, findings: [finding] },
      }),
    );

  it("lists verify's findings with their fixes, with a checkpoint and before the first", () => {
    for (const html of [drift('2026-01-01T00:00:00Z'), drift(null)]) {
      expect(html).toContain('<ul class="findings">');
      expect(html).toContain('marker <code>t1</code> is STALE');
      expect(html).toContain('<div class="muted">fix: agent-state check t1</div>');
    }
    expect(drift(null)).toContain('No checkpoint yet');
  });
});

describe('describeEvent', () => {
  it('names unknown types by their fields and cuts huge ones', () => {
    const e = describeEvent({ seq: 1, at: 'x', type: 'x.y', actor: 'agent', k: 'v'.repeat(1000) });
    expect(e.summary.startsWith('k=vvv')).toBe(true);
    expect(e.summary.length).toBeLessThanOrEqual(300);
    expect(e.kind).toBe('other');
  });

  it('says a removed plan item is removed', () => {
    const e = { seq: 1, at: 'x', actor: 'agent' as const, type: 'plan.updated', item: 't4' };
    expect(describeEvent({ ...e, title: 'Old', removed: true }).summary).toBe('t4 → removed · Old');
    expect(describeEvent({ ...e, status: 'done' }).summary).toBe('t4 → done');
  });

  it('tells a failing test run from a passing one', () => {
    const run = (failed: number) =>
      describeEvent({
        seq: 1,
        at: 'x',
        type: 'verification.finished',
        actor: 'tool',
        passed: 3,
        failed,
      });
    expect(run(1).kind).toBe('failure');
    expect(run(0).kind).toBe('test');
    expect(run(0).summary).toBe('tests · 3 passed, 0 failed');
  });

  it('names the current step a task.updated set, or says it was cleared', () => {
    const updated = (current_step: string) =>
      describeEvent({ seq: 1, at: 'x', type: 'task.updated', actor: 'system', current_step })
        .summary;
    expect(updated('Verify refund signatures')).toContain('step: Verify refund signatures');
    expect(updated('')).toContain('current step cleared');
  });
});

describe('restoreCommands', () => {
  it('offers git commands only for what git holds', () => {
    expect(restoreCommands(null, null)).toEqual([]);
    expect(restoreCommands(null, 'abc')[0]!.command).toBe('git switch --detach abc');
    expect(restoreCommands('def', 'abc').map((r) => r.command)).toEqual([
      'git restore --source def -- .agent/state',
      'git switch --detach def',
    ]);
  });
});

describe('renderPage', () => {
  const model = buildUiModel(input());
  const page = renderPage(model, STATIC);

  it('keeps hostile state text as text: one script (ours), no injected element', () => {
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;␛[31m');
    expect(page).not.toContain('</script><script>alert(2)');
    expect(page).not.toContain('\u001b');
  });

  it('allows only its own inline style and script, and no network in a report', () => {
    const script = /<script>([\s\S]*)<\/script>/.exec(page)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(contentSecurityPolicy('static')).toContain(`script-src 'sha256-${hash}'`);
    expect(contentSecurityPolicy('static')).toContain("default-src 'none'");
    expect(contentSecurityPolicy('static')).not.toContain('connect-src');
    expect(contentSecurityPolicy('live')).toContain("connect-src 'self'");
    expect(page).toContain(`content="${escapeHtml(contentSecurityPolicy('static'))}"`);
  });

  it('shows every section the issue lists', () => {
    expect(page).toContain('<code class="forbidden-glob">src/storage/**</code>');
    expect(page).toContain('<code class="forbidden-glob">*.pem</code>');
    expect(page).toMatch(/class="next-action">\s*Wire paginate\(\) &lt;\/script&gt;/);
    for (const id of ['t1', 't2', 't3']) expect(page).toContain(`data-id="${id}"`);
    expect(page).toMatch(/class="marker stale"\s*>.*STALE.*test\/p\.test\.js/s);
    expect(page).toContain('data-id="forbidden.modified"');
    expect(page).toContain('<span class="chip deny">WebFetch</span>');
    expect(page).toContain('href="../.agent/artifacts/t.log"');
    expect(page).toContain('agent-state evidence show ID');
    expect(page).toContain('git restore --source c0ffee1234567890 -- .agent/state');
    expect(page.indexOf('data-seq="8"')).toBeLessThan(page.indexOf('data-seq="1"'));
  });

  it('renders live sections that change only when the facts do', () => {
    // Two seconds later: the ages moved, no fact did (the overdue checkpoint is still 59 minutes).
    const later = buildUiModel(input({ now: new Date('2026-01-01T01:00:02Z') }));
    expect(renderSections(later, LIVE)).toEqual(renderSections(model, LIVE));
    expect(Object.keys(renderSections(model, LIVE))).toEqual([...SECTION_IDS]);
    const moved = input();
    moved.progress = { ...moved.progress!, next_action: 'Something else' };
    const changed = renderSections(buildUiModel(moved), LIVE);
    const before = renderSections(model, LIVE);
    expect(SECTION_IDS.filter((id) => changed[id] !== before[id])).toEqual(['now']);
  });
});
