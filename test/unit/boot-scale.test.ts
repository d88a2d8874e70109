// Boot stays linear in what it can cut: the tokenizer is asked to count a bounded multiple of the
// prompt's text however many blocks are cut (the quadratic fitter re-counted the header and every
// summary line after each cut), and a summary standing for thousands of cut blocks stays short.
// Work is measured in characters counted, not in time: the timings are in bench/boot-scale.mjs.
import { describe, expect, it } from 'vitest';
import { chooseLevel, contextRecovery } from '../../src/boot/choose-level.js';
import { fitBudget } from '../../src/boot/fit-budget.js';
import { heuristicCounter } from '../../src/boot/o200k-counter.js';
import type { Block, Section } from '../../src/boot/model.js';
import { bootSections, renderBoot } from '../../src/boot/render-boot.js';
import type { BootContext, TokenCounter } from '../../src/boot/types.js';
import { countWords } from '../../src/state/goals.js';
import type { PlanItem } from '../../src/types.js';
import { richContext } from '../fixtures/boot/rich-context.js';

// The heuristic counter, tallying how many characters it was given.
function tallyingCounter(): TokenCounter & { chars: number } {
  const counter = {
    name: 'heuristic' as const,
    chars: 0,
    count(text: string) {
      counter.chars += text.length;
      return heuristicCounter.count(text);
    },
  };
  return counter;
}

function bigPlan(items: number, done: number): PlanItem[] {
  return Array.from({ length: items }, (_, i) => ({
    id: `t${i + 1}`,
    title: `Step ${i + 1}: paginate page ${i + 1}`,
    status: i < done ? ('done' as const) : ('pending' as const),
  }));
}

// Characters counted per character of the whole prompt (rendered with no budget at all).
function workRatio(context: BootContext): { ratio: number; text: string } {
  const counter = tallyingCounter();
  const rendering = renderBoot(context, { level: 2, budget: 12000, counter });
  const unlimited = structuredClone(context);
  unlimited.config.budget = { ...context.config.budget, goals: 1e9, progress: 1e9, evidence: 1e9 };
  const everything = renderBoot(unlimited, { level: 2, budget: 1e9, counter: heuristicCounter });
  expect(everything.omitted).toEqual([]);
  return { ratio: counter.chars / everything.text.length, text: rendering.text };
}

// How many times fitBudget reads a block, per block: each section's blocks are a counting proxy.
function blockReads(context: BootContext): number {
  const choice = chooseLevel(2, contextRecovery(context), context.config.boot.stall_threshold);
  let reads = 0;
  let blocks = 0;
  const sections: Section[] = bootSections(context, choice, 'execution', null).map((section) => {
    blocks += section.blocks.length;
    const counted = new Proxy(section.blocks, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as Block[];
    return { ...section, blocks: counted };
  });
  const { budget } = context.config;
  fitBudget({
    sections,
    format: 'markdown',
    meta: { level: 2, role: 'execution' },
    counter: heuristicCounter,
    multiplier: 1,
    budget: budget.total,
    layerBudgets: { goals: budget.goals, progress: budget.progress, evidence: budget.evidence },
    header: (facts) => `agent-state boot · ${facts.tokens} tokens · ${facts.removed.size} cut`,
  });
  return reads / blocks;
}

describe('boot on large tasks', () => {
  it('reads each block a bounded number of times, however many are cut', () => {
    const notes = richContext();
    notes.progress.memory = {
      durable: [],
      working: Array.from({ length: 8000 }, (_, i) => `Note ${i}: todos.js reads limit twice`),
    };
    expect(blockReads(notes)).toBeLessThan(40);
    const plan = richContext();
    plan.progress.plan = bigPlan(8000, 6000);
    plan.markers = [];
    expect(blockReads(plan)).toBeLessThan(40);
  });

  it('counts a bounded multiple of the text for a 4,000-item plan with 3,000 done', () => {
    const context = richContext();
    context.progress.plan = bigPlan(4000, 3000);
    context.progress.current_step = null;
    context.markers = [];
    const { ratio, text } = workRatio(context);
    expect(ratio).toBeLessThan(4);
    // The 3,000 done ids are not listed one by one.
    expect(text).toContain('- [x] 3000 done, collapsed: t1, t2, t3,');
    expect(text).toContain(', t20 and 2980 more');
    expect(text).not.toContain('t21,');
  });

  it('counts a bounded multiple of the text for 8,000 working notes', () => {
    const context = richContext();
    context.progress.memory = {
      durable: [],
      working: Array.from({ length: 8000 }, (_, i) => `Note ${i}: todos.js reads limit twice`),
    };
    const { ratio, text } = workRatio(context);
    expect(ratio).toBeLessThan(4);
    expect(text.split('\n')[0]).toMatch(/omitted .*\b\d{4} working notes/);
  });

  it('counts a bounded multiple of the text for 1,500 markers', () => {
    const context = richContext();
    context.progress.plan = bigPlan(1500, 1500);
    context.markers = context.progress.plan.map((p) => ({
      id: p.id,
      state: 'valid' as const,
      changed: [],
    }));
    const { ratio } = workRatio(context);
    expect(ratio).toBeLessThan(4);
  });

  it('keeps the full list of ids up to 20 cut items', () => {
    const context = richContext();
    context.progress.plan = bigPlan(40, 20);
    context.markers = [];
    const rendering = renderBoot(context, { level: 2, budget: 1000, counter: heuristicCounter });
    const ids = Array.from({ length: 20 }, (_, i) => `t${i + 1}`).join(', ');
    expect(rendering.text).toContain(`- [x] 20 done, collapsed: ${ids}\n`);
  });
});

describe('countWords on a long CJK anchor', () => {
  const sentence = '我们需要在不改变存储层的情况下为待办事项接口添加分页功能并保持向后兼容。';
  it('counts an ordinary anchor exactly as the segmenter does', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const text = sentence.repeat(20);
    const exact = [...segmenter.segment(text)].filter((p) => p.isWordLike).length;
    expect(countWords(text)).toBe(exact);
  });

  it('counts a 100,000-character run within one word per 1,000 characters', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const unit = sentence.replace('。', '');
    const unbroken = unit.repeat(Math.ceil(100_000 / unit.length));
    // The exact figure, from the segmenter on pieces cut where one sentence ends and the next
    // begins (a word ends there).
    let exact = 0;
    for (let i = 0; i < unbroken.length; i += unit.length)
      exact += [...segmenter.segment(unbroken.slice(i, i + unit.length))].filter(
        (p) => p.isWordLike,
      ).length;
    const counted = countWords(unbroken);
    expect(Math.abs(counted - exact)).toBeLessThanOrEqual(unbroken.length / 1000);
  });
});
