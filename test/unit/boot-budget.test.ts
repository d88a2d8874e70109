// Budgets: what is cut first, what is never cut, layer budgets, and the over-budget report.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadO200kCounter } from '../../src/boot/o200k-counter.js';
import { renderBoot } from '../../src/boot/render-boot.js';
import type { BootOmission, TokenCounter } from '../../src/boot/types.js';
import { judgeDrift, judgeStale, noDriftVerdict, NO_OWN_FACTS } from '../../src/recovery/rules.js';
import { NOW, richContext } from '../fixtures/boot/rich-context.js';

const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const CUT_ORDER: BootOmission['kind'][] = [
  'evidence_body',
  'evidence_headline',
  'done_items',
  'working_memory',
  'durable_memory',
  'goals_section',
  'non_goals',
  'success_criteria',
];

describe('boot budgets', () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadO200kCounter();
  });
  const render = (budget: number, level: 1 | 2 | 3 = 3) =>
    renderBoot(richContext(), { level, budget, counter });

  it('cuts evidence bodies, older headlines, done items, working memory, then criteria, in that order', () => {
    const full = render(12000).tokens.total;
    const floor = render(1).tokens.mustKeep;
    let seen: BootOmission['kind'][] = [];
    for (let budget = full; budget >= floor; budget -= 7) {
      const rendering = render(budget);
      expect(rendering.tokens.total).toBeLessThanOrEqual(budget);
      expect(rendering.tokens.overBudget).toBe(false);
      const kinds = rendering.omitted.map((o) => o.kind).filter((k) => CUT_ORDER.includes(k));
      // A kind is cut only after every kind before it, and a smaller budget cuts at least as much.
      expect(kinds).toEqual(CUT_ORDER.slice(0, kinds.length));
      expect(kinds.length).toBeGreaterThanOrEqual(seen.length);
      seen = kinds;
    }
    expect(seen).toEqual(CUT_ORDER);
  });

  it('cuts the oldest evidence body first, from its end, and says how to get it back', () => {
    const full = render(12000);
    const rendering = render(full.tokens.total - 30);
    expect(rendering.text).toContain('### 000012 test');
    // The oldest body is gone; the next one lost its end (the code block) but kept its start.
    expect(rendering.text).not.toContain('### 000009 decision');
    expect(rendering.text).toContain('### 000010 test');
    expect(rendering.text).not.toContain('not ok 13 - page=2');
    expect(rendering.omitted[0]).toEqual({
      kind: 'evidence_body',
      count: 2,
      ids: ['000010', '000009'],
      how: 'agent-state evidence show ID',
    });
    expect(rendering.text.split('\n')[0]).toContain(
      'omitted 2 evidence bodies (see agent-state evidence show ID)',
    );
    expect(rendering.text).toContain(
      '[cut for the budget: the rest of 000010, 000009 — `agent-state evidence show ID`]',
    );
  });

  it('collapses done plan items into a count with their ids; a stale one stays', () => {
    const rendering = render(800, 2);
    expect(rendering.omitted.map((o) => o.kind)).toContain('done_items');
    expect(rendering.text).toContain('- [x] 2 done, collapsed: t1, t2');
    expect(rendering.text).toContain(
      't3 Validate limit (1–100) and answer 400 otherwise — done, STALE',
    );
  });

  it('never cuts the anchor, Forbidden, Constraints, next action or current step', () => {
    const context = richContext();
    const rendering = render(1);
    expect(rendering.tokens.overBudget).toBe(true);
    expect(rendering.tokens.total).toBe(rendering.tokens.mustKeep);
    expect(rendering.tokens.total).toBe(plain(rendering.text));
    expect(rendering.text).toContain(context.goals.anchor);
    for (const f of context.goals.forbidden) expect(rendering.text).toContain(f.text);
    for (const c of context.goals.constraints) expect(rendering.text).toContain(c.split('\n')[0]);
    expect(rendering.text).toContain(context.progress.next_action);
    expect(rendering.text).toContain('t4 — Implement pagination in the route handler');
    expect(rendering.text).toContain('Ask the user about the maximum page size');
    expect(rendering.text.split('\n')[0]).toContain('OVER BUDGET');
    expect(rendering.text.split('\n')[0]).toMatch(/ \d+\/1 tokens/);
  });

  it('names the stale markers at any budget: the first in full, a count of the rest', () => {
    const stale = (id: string) => ({
      id,
      state: 'stale' as const,
      changed: [{ path: 'src/routes/params.js', reason: 'changed' }],
    });
    const context = richContext({ markers: [stale('t1'), stale('t2'), stale('t3')] });
    const rendering = renderBoot(context, { level: 2, budget: 300, counter });
    expect(rendering.text).toContain('## Stale completion markers');
    expect(rendering.text).toMatch(/- STALE t1: src\/routes\/params\.js changed/);
    expect(rendering.text).toContain('[2 more stale markers: `agent-state verify`]');
  });

  it('keeps each layer under its own budget', () => {
    const context = richContext();
    context.config.budget.evidence = 60;
    context.config.budget.goals = 250;
    const rendering = renderBoot(context, { level: 3, counter });
    expect(rendering.tokens.byLayer.evidence).toBeLessThanOrEqual(60);
    expect(rendering.tokens.byLayer.goals).toBeLessThanOrEqual(250);
    expect(rendering.omitted.map((o) => o.kind)).toEqual(
      expect.arrayContaining(['evidence_body', 'evidence_headline', 'goals_section']),
    );
    // The total budget was not the reason: the other layers are whole.
    expect(rendering.omitted.map((o) => o.kind)).not.toContain('done_items');
  });

  it('never splits a code block or a list item', () => {
    const context = richContext();
    const items = [...context.goals.successCriteria, ...context.progress.memory!.working!];
    const full = render(12000).tokens.total;
    for (let budget = full; budget > 400; budget -= 5) {
      const text = render(budget).text;
      expect((text.match(/```/g) ?? []).length % 2).toBe(0);
      for (const item of items) {
        const head = item.slice(0, 20);
        if (text.includes(head)) expect(text).toContain(item);
      }
    }
  });

  it('falls back to 2 with auto when nothing calls for a rebuild, and explains level 3 when it chooses it', () => {
    const calm = richContext({ drift: null, markers: [] });
    expect(renderBoot(calm, { level: 'auto', counter }).level).toBe(2);
    // Without recovery verdicts nothing records who changed the files: they are unrecorded, and
    // only the commits made elsewhere call for a rebuild.
    const rendering = renderBoot(richContext(), { level: 'auto', counter });
    expect(rendering.level).toBe(3);
    expect(rendering.choice.reason).toBe(
      'auto: 2 commits not made here (9f86d08 Tweak the parser defaults, 2c26b46 Merge main into pagination); unrecorded changes: 4 files (src/routes/params.js, src/routes/todos.js, test/params.test.js and 1 more); stale from unrecorded changes: t3',
    );
    expect(rendering.text).toContain('Why level 3: 2 commits not made here');
  });

  it("names the agent's own changes and stale markers at level 2 without a rebuild", () => {
    const context = richContext();
    const tree = { states: {}, mtimes: {} };
    const own = {
      ...NO_OWN_FACTS,
      reflog: true,
      commits: context.drift!.head!.commits!.map((c) => c.sha),
      files: Object.fromEntries(
        [...context.drift!.files, ...context.drift!.key_files].map((f) => [
          f.path,
          { at: NOW.toISOString(), state: null },
        ]),
      ),
    };
    const drift = judgeDrift(context.drift!, own, tree);
    const stale = context.markers.filter((m) => m.state === 'stale');
    context.recovery = {
      drift,
      stale: judgeStale(stale, drift, own, tree),
      stalled: 1,
      moved: ['edits'],
      boots: 7,
      measured: true,
    };
    const rendering = renderBoot(context, { level: 'auto', counter });
    expect(rendering.level).toBe(2);
    expect(rendering.choice.foreignDrift).toBe(false);
    expect(rendering.choice.reason).toBe(
      'auto: no foreign drift, no restart loop; your uncheckpointed changes: 4 files and 2 commits; stale from your own edits: t3',
    );
    expect(rendering.text).toContain('## Uncheckpointed changes (yours)');
    expect(rendering.text).toContain('STALE t3: src/routes/params.js changed (your edit)');
    expect(rendering.text).not.toContain('a full rescan');
    // A resume with the same facts is level 1, still naming them.
    const resume = renderBoot(context, { level: 'auto', source: 'resume', counter });
    expect(resume.level).toBe(1);
    expect(resume.text).toContain('## Uncheckpointed changes (yours)');
    expect(resume.text).toContain('STALE t3');
  });

  it('declares a restart loop at the threshold with the last three next actions', () => {
    const context = richContext({ drift: null, markers: [] });
    const recovery = {
      drift: noDriftVerdict(),
      stale: [],
      stalled: 2,
      moved: [],
      boots: 3,
      measured: false,
    };
    context.recovery = recovery;
    expect(renderBoot(context, { level: 'auto', counter }).choice.restartLoop).toBe(false);
    context.recovery = { ...recovery, stalled: 3 };
    const rendering = renderBoot(context, { level: 'auto', counter });
    expect(rendering.level).toBe(3);
    expect(rendering.choice.restartLoop).toBe(true);
    expect(rendering.choice.reason).toBe(
      'auto: a restart loop (3 boots in a row with no progress between them)',
    );
    const loop = rendering.sections.find((s) => s.key === 'restart-loop')!;
    expect(loop.must_keep).toBe(true);
    expect(loop.text).toContain(
      'You are in a restart loop: 3 boots in a row with no progress between them',
    );
    expect(loop.text).toContain('- Write the failing pagination test (set 5h ago)');
    expect(loop.text).toContain('- Add the query-parameter parser (set 4h ago)');
    expect(loop.text).toContain('ask a human for help');
  });

  it('writes the role and the source into the instructions', () => {
    const rendering = renderBoot(richContext(), {
      level: 2,
      role: 'review',
      source: 'compact',
      counter,
    });
    const instructions = rendering.sections.find((s) => s.key === 'instructions')!.text;
    expect(instructions).toContain(
      'Role review: check the results against the success criteria and the evidence',
    );
    expect(instructions).toContain('Your context was just compacted');
    // A reviewer keeps the success criteria longer than the done items.
    const tight = renderBoot(richContext(), { level: 2, role: 'review', budget: 760, counter });
    const kinds = tight.omitted.map((o) => o.kind);
    expect(kinds).toContain('done_items');
    expect(kinds).not.toContain('success_criteria');
  });
});
