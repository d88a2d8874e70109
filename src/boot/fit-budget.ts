// Fitting the prompt into its budgets (pure): blocks cut whole, lowest rank first, each layer under
// its budget, then the prompt under the total; then counted exactly, cutting more until it fits.
// Must-keep parts alone over the budget are printed whole, and that is reported.
import {
  MUST_KEEP,
  tallyBlock,
  tallyOmissions,
  type Block,
  type OmissionTally,
  type Section,
} from './model.js';
import {
  blockText,
  documentPieces,
  renderSection,
  sectionFrame,
  type TextFormat,
  type VisibleSection,
} from './format.js';
import type { BootLayer, BootLevel, BootRole, TokenCounter } from './types.js';

/** What the header needs to say. */
export interface HeaderValues {
  removed: ReadonlySet<Block>;
  /** What the cut blocks were (the tally of `removed`). */
  omitted: OmissionTally;
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
  header(values: HeaderValues): string;
}

/** The fitted prompt: `raw` tokens of `text` (before the multiplier), and of must-keep parts. */
type FitResult = Rendered & { removed: Set<Block>; mustKeepRaw: number; overBudget: boolean };
type Rendered = { visible: VisibleSection[]; header: string; text: string; raw: number };

/** Multiplied tokens, rounded up (what budgets and the header speak in). */
export function scaled(raw: number, multiplier: number): number {
  return Math.ceil(raw * multiplier - 1e-9);
}

/** Raw tokens that fit in a multiplied budget. */
function rawLimit(budget: number, multiplier: number): number {
  return Math.floor(budget / multiplier + 1e-9);
}

/** The sections and blocks that survive a cut set. */
function visibleSections(
  sections: readonly Section[],
  removed: ReadonlySet<Block>,
): VisibleSection[] {
  return sections.flatMap((section) => {
    const blocks = section.blocks.filter((b) => !removed.has(b));
    if (blocks.length === 0) return [];
    const cut = section.blocks.filter((b) => removed.has(b));
    const summary = cut.length && section.summarize ? section.summarize(cut) : null;
    return [{ section, blocks, summary }];
  });
}

// The running account of a cut set: block and section token counts (estimates: the sum of the
// parts), the cut order, and cutting the next candidate. Kept incrementally, so that cutting n
// blocks costs O(n): the block sums are running totals, and the parts that are not sums of blocks
// (summary lines, the header) are counted only when the sums alone no longer decide.
function ledger(input: FitInput) {
  const { sections, format } = input;
  const count = (text: string) => input.counter.count(text);
  // Per section: its overhead, the tokens and number of its blocks not cut, and its summary line's
  // tokens for the current cut set (null: not counted since the last cut).
  type Tally = { overhead: number; left: number; leftBlocks: number; summary: number | null };
  const tally = new Map<Section, Tally>();
  // Per block: its tokens, its section and the blocks cut with it (its group).
  const info = new Map<Block, { n: number; section: Section; entry: Tally; group: Block[] }>();
  for (const section of sections) {
    const [before, after] = sectionFrame(section, format);
    // +2: the blank line that separates sections.
    const overhead = count(before) + count(after) + 2;
    const entry: Tally = { overhead, left: 0, leftBlocks: section.blocks.length, summary: 0 };
    const byGroup = new Map<string, Block[]>();
    for (const block of section.blocks) {
      const n = count(blockText(block.text, format)) + (block.sep === '\n\n' ? 1 : 0);
      entry.left += n;
      const group = block.group === undefined ? [] : (byGroup.get(block.group) ?? []);
      if (block.group !== undefined) byGroup.set(block.group, group);
      group.push(block);
      info.set(block, { n, section, entry, group });
    }
    tally.set(section, entry);
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
  // The first candidate not cut yet, overall and per layer: cuts only ever move them forward.
  const cursors = new Map<BootLayer | undefined, number>();
  // Block tokens and overheads of the sections with blocks left, overall and per layer.
  const sums = new Map<BootLayer | undefined, number>();
  const addSum = (section: Section, n: number) => {
    for (const key of [undefined, section.layer]) sums.set(key, (sums.get(key) ?? 0) + n);
  };
  for (const [section, entry] of tally)
    if (entry.leftBlocks > 0) addSum(section, entry.overhead + entry.left);
  const summaryTokens = (section: Section, entry: Tally): number => {
    if (entry.leftBlocks === 0 || !section.summarize) return 0;
    if (entry.summary === null) {
      const cut = section.blocks.filter((b) => removed.has(b));
      const summary = cut.length ? section.summarize(cut) : null;
      entry.summary = summary ? count(summary) + 1 : 0;
    }
    return entry.summary;
  };
  const summaries = (layer?: BootLayer): number => {
    let n = 0;
    for (const [section, entry] of tally)
      if (layer === undefined || section.layer === layer) n += summaryTokens(section, entry);
    return n;
  };
  const omitted: OmissionTally = new Map();
  const header = () =>
    count(input.header({ removed, omitted, tokens: input.budget, overBudget: false })) + 2;
  const cutBlock = (block: Block): number => {
    removed.add(block);
    tallyBlock(omitted, block);
    const { n, section, entry } = info.get(block)!;
    entry.left -= n;
    entry.leftBlocks--;
    entry.summary = null;
    // The section's overhead goes with its last block.
    addSum(section, -(entry.leftBlocks === 0 ? n + entry.overhead : n));
    return n;
  };
  return {
    candidates,
    removed,
    omitted,
    exhausted: () => removed.size >= candidates.length,
    /** The layer's (or prompt's) tokens, or more than `limit` when block sums already say so. */
    estimate(limit: number, layer?: BootLayer): number {
      const lower = sums.get(layer) ?? 0;
      if (lower > limit) return lower;
      return lower + summaries(layer) + (layer === undefined ? header() : 0);
    },
    /** Cuts the next candidate (with the rest of its group); returns the tokens freed, 0 if none. */
    cutNext(layer?: BootLayer): number {
      let at = cursors.get(layer) ?? 0;
      while (
        at < candidates.length &&
        (removed.has(candidates[at]!) ||
          (layer !== undefined && info.get(candidates[at]!)!.section.layer !== layer))
      )
        at++;
      cursors.set(layer, at);
      const next = candidates[at];
      if (!next) return 0;
      let freed = 0;
      for (const block of info.get(next)!.group) if (!removed.has(block)) freed += cutBlock(block);
      return freed;
    },
  };
}

/** Cuts blocks until the prompt fits; see the file comment. */
export function fitBudget(input: FitInput): FitResult {
  const account = ledger(input);
  const { removed } = account;
  const count = pieceCounter(input.counter);
  for (const layer of ['goals', 'progress', 'evidence'] as const) {
    const limit = input.layerBudgets[layer];
    if (limit === undefined) continue;
    const raw = rawLimit(limit, input.multiplier);
    while (account.estimate(raw, layer) > raw && account.cutNext(layer) > 0);
  }
  const limit = rawLimit(input.budget, input.multiplier);
  while (account.estimate(limit) > limit && account.cutNext() > 0);
  for (;;) {
    const fitted = render(input, count, removed, account.omitted, false);
    if (fitted.raw <= limit) {
      const floor = account.exhausted()
        ? fitted.raw
        : render(input, count, new Set(account.candidates), null, false).raw;
      return { removed, ...fitted, mustKeepRaw: floor, overBudget: false };
    }
    if (account.exhausted()) {
      const over = render(input, count, removed, account.omitted, true);
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

// Counts the pieces of a prompt (documentPieces): one by one, each piece's count remembered, when
// the counter splits at lines (the sum is then the exact count of the whole); else the whole text.
function pieceCounter(counter: TokenCounter): (pieces: readonly string[]) => number {
  if (!counter.splitsAtLines) return (pieces) => counter.count(pieces.join(''));
  const counted = new Map<string, number>();
  return (pieces) => {
    let total = 0;
    for (const piece of pieces) {
      let n = counted.get(piece);
      if (n === undefined) counted.set(piece, (n = counter.count(piece)));
      total += n;
    }
    return total;
  };
}

// Renders with the header's token figure settled: the header shows the count of the text it is
// part of, so render, count, and render again until the figure is stable. When it flips between
// two values (one more digit, one more token), the larger one is printed: never an understatement.
function render(
  input: FitInput,
  count: (pieces: readonly string[]) => number,
  removed: ReadonlySet<Block>,
  tally: OmissionTally | null,
  overBudget: boolean,
): Rendered {
  const visible = visibleSections(input.sections, removed);
  const body = visible.map((v) => renderSection(v, input.format));
  const omitted = tally ?? tallyOmissions(input.sections, removed);
  const attempt = (shown: number) => {
    const header = input.header({ removed, omitted, tokens: shown, overBudget });
    const pieces = documentPieces(input.format, header, body, input.meta);
    return { visible, header, text: pieces.join(''), raw: count(pieces) };
  };
  const tried: number[] = [];
  let shown = 0;
  for (;;) {
    const result = attempt(shown);
    const figure = scaled(result.raw, input.multiplier);
    if (figure === shown) return result;
    if (tried.includes(figure) || tried.length >= 6) return attempt(Math.max(shown, figure));
    tried.push(shown);
    shown = figure;
  }
}
