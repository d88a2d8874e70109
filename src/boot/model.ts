// The boot prompt before rendering: sections made of blocks. A block is the smallest unit that
// may be cut — a list item, a paragraph, a fenced code block — so cutting never splits one.
import type { BootLayer, BootOmission } from './types.js';
import { shortList } from '../text/plural.js';

/** The rank of what is never cut. */
export const MUST_KEEP = Number.POSITIVE_INFINITY;

/** Cut order, first → last: what the issue lists (evidence bodies … non-goals), then the rest. */
export const RANK = {
  evidenceBody: 10,
  olderEvidence: 20,
  doneItems: 30,
  workingMemory: 40,
  durableMemory: 45,
  goalsExtra: 50,
  nonGoals: 55,
  successCriteria: 60,
  newestEvidence: 70,
  lastVerification: 72,
  planItems: 75,
  driftDetails: 80,
  staleMarkers: 85,
  driftSummary: 90,
} as const;

export interface Block {
  /** Markdown, without a trailing newline. */
  text: string;
  /** Cut order (lower first); MUST_KEEP for never. */
  rank: number;
  /** Within a rank, lower is cut first. */
  order: number;
  /** Blocks of one group are cut together. */
  group?: string;
  /** What to record when the block is cut. */
  omission?: { kind: BootOmission['kind']; id?: string; how: string };
  /** The text before this block inside its section (default "\n"; "\n\n" for paragraphs). */
  sep?: string;
  /** The text starts with the tool's own heading (`### …`): not quoted as data. */
  head?: boolean;
}

export interface Section {
  key: string;
  title: string;
  layer: BootLayer;
  blocks: Block[];
  /** A line standing for the blocks that were cut (e.g. the collapsed done items). */
  summarize?: (cut: readonly Block[]) => string | null;
  /** Attributes of the section's XML element. */
  xmlAttrs?: Record<string, string>;
}

/** A section (a string block is kept whole); `more` adds what only some sections have. */
export function section(
  key: string,
  title: string,
  layer: BootLayer,
  blocks: readonly (Block | string)[],
  more?: Pick<Section, 'summarize' | 'xmlAttrs'>,
): Section {
  const kept = blocks.map((b) => (typeof b === 'string' ? keep(b) : b));
  return { key, title, layer, blocks: kept, ...more };
}

/** A list item: "- text", continuation lines indented so the item stays one item. */
export function bullet(text: string, marker = '-'): string {
  return `${marker} ${text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : `  ${line}`))
    .join('\n')}`;
}

/** The most ids a summary line names; past it, the first ones and a count. */
export const SUMMARY_IDS = 20;

/** Ids for a summary line, past SUMMARY_IDS "and N more": thousands of cuts stay one short line. */
export const idList = (ids: readonly string[]): string => shortList(ids, SUMMARY_IDS);

/** A must-keep block. */
export function keep(text: string, sep?: string): Block {
  return { text, rank: MUST_KEEP, order: 0, ...(sep === undefined ? {} : { sep }) };
}

const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s+/;

/** Splits Markdown into paragraphs, top-level list items and whole fenced blocks, with seps. */
export function chunkMarkdown(text: string): { text: string; sep: string }[] {
  const chunks: { text: string; sep: string }[] = [];
  let lines: string[] = [];
  let blanks = 0;
  let inFence = false;
  const flush = (sep: string) => {
    if (lines.length) chunks.push({ text: lines.join('\n'), sep });
    lines = [];
  };
  let sep = '\n';
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (!inFence && line.trim() === '') {
      blanks++;
      continue;
    }
    const inItem = lines.length > 0 && LIST_ITEM.test(lines[0]!);
    // An indented line after a blank line continues the list item above it.
    const continuesItem = inItem && /^\s{2,}\S/.test(line);
    const startsFence = !inFence && FENCE.test(line);
    const split =
      !inFence &&
      lines.length > 0 &&
      !continuesItem &&
      (blanks > 0 || LIST_ITEM.test(line) || (startsFence && (!inItem || !/^\s/.test(line))));
    if (split) {
      flush(sep);
      sep = blanks > 0 ? '\n\n' : '\n';
    } else if (blanks > 0 && lines.length > 0) {
      lines.push(...Array<string>(blanks).fill(''));
    }
    blanks = 0;
    lines.push(line);
    if (FENCE.test(line)) inFence = !inFence;
  }
  flush(sep);
  return chunks;
}

// What the cut blocks were, by kind: the fitter keeps a tally up to date as it cuts (the header
// names it after every cut); the rendering makes one from the final cut set, in document order.
/** The omissions of a cut set, by kind. */
export type OmissionTally = Map<
  BootOmission['kind'],
  { ids: Set<string>; blocks: number; how: string }
>;

/** Counts one cut block in the tally. */
export function tallyBlock(tally: OmissionTally, block: Block): void {
  if (!block.omission) return;
  const { kind, id, how } = block.omission;
  let entry = tally.get(kind);
  if (!entry) tally.set(kind, (entry = { ids: new Set(), blocks: 0, how }));
  entry.blocks++;
  if (id !== undefined) entry.ids.add(id);
}

/** The tally of every block of `sections` in `removed`, in document order. */
export function tallyOmissions(
  sections: readonly Section[],
  removed: ReadonlySet<Block>,
): OmissionTally {
  const tally: OmissionTally = new Map();
  if (removed.size === 0) return tally;
  for (const section of sections)
    for (const block of section.blocks) if (removed.has(block)) tallyBlock(tally, block);
  return tally;
}

/** "just now", "5m ago", "3h ago", "2d ago" (pure; `now` is the boot's clock). */
export function ago(iso: string | null | undefined, now: Date): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (Number.isNaN(seconds)) return 'at an unknown time';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86400)}d ago`;
}
