// Property: for any state and any budget down to the must-keep floor, the prompt fits the budget,
// and the anchor, every Constraint, every Forbidden entry and the next action are in it, at
// every level and in every text format. Below the floor the must-keep parts are printed whole
// and the prompt says it is over budget.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeXml } from '../../src/boot/format.js';
import { bullet } from '../../src/boot/model.js';
import { markdownData } from '../../src/text/safe-text.js';
import { loadO200kCounter } from '../../src/boot/o200k-counter.js';
import { renderBoot } from '../../src/boot/render-boot.js';
import type { BootContext, TokenCounter } from '../../src/boot/types.js';
import { DEFAULT_CONFIG } from '../../src/state/config.js';
import type { PlanStatus } from '../../src/types.js';
import { NOW } from '../fixtures/boot/rich-context.js';

const WORDS = [
  'pagination',
  'handler',
  '`src/routes/**`',
  'GET /todos?page=2',
  '存储层',
  '不改动',
  '分页',
  'naïve',
  'Ωμέγα',
  '👩‍💻',
  'x = f(y) + 1;',
  '{ "a": [1, 2] }',
  '<tag>',
  'a&b',
  '**bold**',
  '|',
  '#',
  '--',
  '200',
  '1,000',
  'déjà',
  'キー',
  '한국',
  '\t',
  'it’s',
];
const line = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ minLength: 1, maxLength: 12 })), {
      minLength: 1,
      maxLength: 14,
    }),
  )
  .map(([words]) =>
    words
      .join(' ')
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .trim(),
  )
  .filter((text) => text !== '');
const lines = (max: number) => fc.array(line, { maxLength: max });

const state = fc.record({
  anchor: line,
  constraints: lines(4),
  forbidden: lines(3),
  criteria: lines(5),
  nonGoals: lines(3),
  next: line,
  plan: fc.array(
    fc.tuple(
      line,
      fc.constantFrom<PlanStatus>('pending', 'running', 'blocked', 'done', 'skipped', 'failed'),
    ),
    { maxLength: 10 },
  ),
  durable: lines(3),
  working: lines(4),
  evidence: fc.array(fc.tuple(line, fc.array(line, { maxLength: 4 })), { maxLength: 5 }),
  reminders: lines(2),
  stalled: fc.integer({ min: 0, max: 5 }),
});

type State = typeof state extends fc.Arbitrary<infer T> ? T : never;

function contextOf(s: State): BootContext {
  return {
    goals: {
      title: 'Task',
      anchor: s.anchor,
      successCriteria: s.criteria,
      constraints: s.constraints,
      forbidden: s.forbidden.map((text) => ({ text, globs: [] })),
      nonGoals: s.nonGoals,
      extraSections: [],
    },
    progress: {
      version: 1,
      revision: 1,
      next_action: s.next,
      plan: s.plan.map(([title, status], i) => ({ id: `t${i + 1}`, title, status })),
      memory: { durable: s.durable, working: s.working },
      stamp: {
        boots: 4,
        stalled_boots: s.stalled,
        checkpoints: 1,
        last_checkpoint: '2026-11-30T10:00:00.000Z',
      },
    },
    config: structuredClone(DEFAULT_CONFIG),
    evidence: s.evidence.map(([summary, body], i) => ({
      id: String(i + 1).padStart(6, '0'),
      at: '2026-11-30T12:00:00.000Z',
      kind: 'test',
      summary,
      body: body.join('\n\n'),
    })),
    markers: [],
    drift: null,
    reminders: s.reminders.map((text) => ({ text, at: '2026-11-30T11:00:00.000Z' })),
    now: NOW,
  };
}

describe('renderBoot over random states and budgets', () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadO200kCounter();
  });

  it('fits every budget down to the floor and always keeps the must-keep parts', () => {
    fc.assert(
      fc.property(
        state,
        fc.integer({ min: -30, max: 2500 }),
        fc.constantFrom<1 | 2 | 3 | 'auto'>(1, 2, 3, 'auto'),
        fc.constantFrom('markdown' as const, 'xml' as const),
        (s, delta, level, format) => {
          const context = contextOf(s);
          const floor = renderBoot(context, { level, format, budget: 1, counter }).tokens.mustKeep;
          const budget = Math.max(1, floor + delta);
          const rendering = renderBoot(context, { level, format, budget, counter });
          const { text, tokens } = rendering;
          // Markdown shows repository text as data (markdownData, on the block), XML escaped.
          const shown = (item: string) => (format === 'xml' ? escapeXml(item) : markdownData(item));
          expect(text).toContain(shown(s.anchor));
          expect(text).toContain(shown(s.next));
          for (const item of [...s.constraints, ...s.forbidden, ...s.reminders])
            expect(text).toContain(format === 'xml' ? shown(item) : shown(bullet(item)));
          expect(tokens.total).toBe(counter.count(text));
          if (budget >= tokens.mustKeep) {
            expect(tokens.overBudget).toBe(false);
            expect(tokens.total).toBeLessThanOrEqual(budget);
          } else {
            expect(tokens.overBudget).toBe(true);
            expect(tokens.total).toBe(tokens.mustKeep);
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);
});
