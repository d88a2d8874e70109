// Fitting the prompt into its budgets (pure). Blocks are cut whole, lowest rank first, first to
// bring each layer under its own budget and then the whole prompt under the total; the printed
// text is then counted exactly, and more is cut until the exact count fits. Only must-keep parts
// are never cut: when they alone exceed the budget, they are printed whole and that is reported.
import { MUST_KEEP, type Block, type Section } from './model.js';
import {
  blockText,
  renderDocument,
  renderSection,
  sectionFrame,
  type TextFormat,
  type VisibleSection,
} from './format.js';
import type { BootLayer, BootLevel, BootRole, TokenCounter } from './types.js';

/** What the header needs to say. */
export interface HeaderFacts {
  removed: ReadonlySet<Block>;
  /** The token figure to print (× multiplier, rounded up). */
  tokens: number;
  /** The must-keep parts alone exceed the budget (they are printed whole). */
  overBudget: boolean;
}

export interface FitInput {
  sections: readonly Section[];
  format: TextFormat;
  meta: { level: BootLevel; role: BootRole };
  counter: TokenCounter;
  multiplier: number;
  /** The total budget (in multiplied tokens). */
  budget: number;
  layerBudgets: Partial<Record<BootLayer, number>>;
  header(facts: HeaderFacts): string;
}

export interface FitResult {
  removed: Set<Block>;
  visible: VisibleSection[];
  header: string;
  text: string;
  /** Raw tokens of `text` (before the multiplier). */
  raw: number;
  /** Raw tokens of the prompt with everything cuttable cut. */
  mustKeepRaw: number;
  overBudget: boolean;
}

/** Multiplied tokens, rounded up (what budgets and the header speak in). */
export function scaled(raw: number, multiplier: number): number {
  return Math.ceil(raw * multiplier - 1e-9);
}

/** Raw tokens that fit in a multiplied budget. */
function rawLimit(budget: number, multiplier: number): number {
  return Math.floor(budget / multiplier + 1e-9);
}

/** The sections and blocks that survive a cut set. */
export function visibleSections(
  sections: readonly Section[],
  removed: ReadonlySet<Block>,
): VisibleSection[] {
  const visible: VisibleSection[] = [];
  for (const section of sections) {
    const blocks = section.blocks.filter((b) => !removed.has(b));
    if (blocks.length === 0) continue;
    const cut = section.blocks.filter((b) => removed.has(b));
    visible.push({
      section,
      blocks,
      summary: cut.length && section.summarize ? section.summarize(cut) : null,
    });
  }
  return visible;
}

// The running account of a cut set: block and section token counts (estimates: the sum of the
// parts), the cut order, and cutting the next candidate.
function ledger(input: FitInput) {
  const { sections, format } = input;
  const count = (text: string) => input.counter.count(text);
  const tokens = new Map<Block, number>();
  const overhead = new Map<Section, number>();
  const sectionOf = new Map<Block, Section>();
  for (const section of sections) {
    const [before, after] = sectionFrame(section, format);
    // +2: the blank line that separates sections.
    overhead.set(section, count(before) + count(after) + 2);
    for (const block of section.blocks) {
      tokens.set(block, count(blockText(block.text, format)) + (block.sep === '\n\n' ? 1 : 0));
      sectionOf.set(block, section);
    }
  }
  const candidates = sections
    .flatMap((s) => s.blocks)
    .filter((b) => b.rank !== MUST_KEEP)
    .map((block, index) => ({ block, index }))
    .sort(
      (a, b) => a.block.rank - b.block.rank || a.block.order - b.block.order || a.index - b.index,
    )
    .map((c) => c.block);
  const removed = new Set<Block>();
  const sum = (blocks: readonly Block[]) => blocks.reduce((n, b) => n + tokens.get(b)!, 0);
  const sectionTokens = (section: Section): number => {
    const left = section.blocks.filter((b) => !removed.has(b));
    if (left.length === 0) return 0;
    const cut = section.blocks.filter((b) => removed.has(b));
    const summary = cut.length && section.summarize ? section.summarize(cut) : null;
    return overhead.get(section)! + sum(left) + (summary ? count(summary) + 1 : 0);
  };
  return {
    candidates,
    removed,
    exhausted: () => candidates.every((b) => removed.has(b)),
    layerTokens: (layer: BootLayer) =>
      sections.filter((s) => s.layer === layer).reduce((n, s) => n + sectionTokens(s), 0),
    estimate: () =>
      sections.reduce((n, s) => n + sectionTokens(s), 0) +
      count(input.header({ removed, tokens: input.budget, overBudget: false })) +
      2,
    /** Cuts the next candidate (with the rest of its group); returns the tokens freed, 0 if none. */
    cutNext(layer?: BootLayer): number {
      const next = candidates.find(
        (b) => !removed.has(b) && (layer === undefined || sectionOf.get(b)!.layer === layer),
      );
      if (!next) return 0;
      const group =
        next.group === undefined
          ? [next]
          : sectionOf.get(next)!.blocks.filter((b) => b.group === next.group && !removed.has(b));
      for (const block of group) removed.add(block);
      return sum(group);
    },
  };
}

/** Cuts blocks until the prompt fits; see the file comment. */
export function fitBudget(input: FitInput): FitResult {
  const account = ledger(input);
  const { removed } = account;
  for (const layer of ['goals', 'progress', 'evidence'] as const) {
    const limit = input.layerBudgets[layer];
    if (limit === undefined) continue;
    const raw = rawLimit(limit, input.multiplier);
    while (account.layerTokens(layer) > raw && account.cutNext(layer) > 0);
  }
  const limit = rawLimit(input.budget, input.multiplier);
  while (account.estimate() > limit && account.cutNext() > 0);
  for (;;) {
    const fitted = render(input, removed, false);
    if (fitted.raw <= limit) {
      const floor = account.exhausted()
        ? fitted.raw
        : render(input, new Set(account.candidates), false).raw;
      return { removed, ...fitted, mustKeepRaw: floor, overBudget: false };
    }
    if (account.exhausted()) {
      const over = render(input, removed, true);
      return { removed, ...over, mustKeepRaw: over.raw, overBudget: true };
    }
    // Cut at least as much as the exact count says is over, then count again.
    for (let freed = 0; freed < fitted.raw - limit;) {
      const cut = account.cutNext();
      if (cut === 0) break;
      freed += cut;
    }
  }
}

// Renders with the header's token figure settled: the header shows the count of the text it is
// part of, so render, count, and render again until the figure is stable. When it flips between
// two values (one more digit, one more token), the larger one is printed: never an understatement.
function render(
  input: FitInput,
  removed: ReadonlySet<Block>,
  overBudget: boolean,
): { visible: VisibleSection[]; header: string; text: string; raw: number } {
  const visible = visibleSections(input.sections, removed);
  const body = visible.map((v) => renderSection(v, input.format));
  const attempt = (shown: number) => {
    const header = input.header({ removed, tokens: shown, overBudget });
    const text = renderDocument(input.format, header, body, input.meta);
    const raw = input.counter.count(text);
    return { header, text, raw, figure: scaled(raw, input.multiplier) };
  };
  const tried: number[] = [];
  let shown = 0;
  for (;;) {
    const result = attempt(shown);
    if (result.figure === shown)
      return { visible, header: result.header, text: result.text, raw: result.raw };
    if (tried.includes(result.figure) || tried.length >= 6) {
      const settled = attempt(Math.max(shown, result.figure));
      return { visible, header: settled.header, text: settled.text, raw: settled.raw };
    }
    tried.push(shown);
    shown = result.figure;
  }
}
