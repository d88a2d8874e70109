// The o200k token counter, loaded on first use (only `boot` needs it): gpt-tokenizer's BPE core
// (a few KB, bundled) over the build's rank table (o200k-table.ts), not the published encoding,
// whose 200,000-entry Map takes ~150 ms to build and whose data adds 30 MB to an install. With
// the table missing or unfit (a broken install) the heuristic counts, and says so in its name.
// The heuristic (--fast, no tokenizer to load): ASCII runs about four characters a token, a CJK
// character about one token, and other scripts about two characters a token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { linearizeMerges } from './bpe-merge.js';
import { PROBE, readRankTable } from './o200k-table.js';
import type { TokenCounter } from './types.js';

// Hiragana, Katakana, CJK ideographs (with extension A and compatibility), Hangul, CJK symbols and
// full-width forms.
const CJK =
  /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

const NON_ASCII = /[^\0-\x7f]/;
const ASCII_RUNS = /[\0-\x7f]+/g;

/** ascii/4 + CJK×1 + other/2, rounded up. */
export function heuristicTokens(text: string): number {
  // The ASCII runs go in native regex code, each left as one space: a loop over every character
  // of a prompt grew hot enough for V8 to optimize it, ~3 ms of a boot's CPU on another thread.
  let units = 0;
  let cjk = 0;
  let other = 0;
  for (const char of NON_ASCII.test(text) ? text.replace(ASCII_RUNS, ' ') : '') {
    if (char === ' ') continue;
    units += char.length;
    if (CJK.test(char)) cjk++;
    else other++;
  }
  return Math.ceil((text.length - units) / 4 + cjk + other / 2);
}

/** The heuristic as a counter. */
// Not `splitsAtLines`: each count is rounded up, so the parts can sum to more than the whole.
export const heuristicCounter: TokenCounter = { name: 'heuristic', count: heuristicTokens };

/** Where the build writes the table. */
export function rankTablePath(): string {
  return join(packageRoot(), 'dist', 'tokenizer', 'o200k.bin');
}

/**
 * The o200k_base BPE over the rank table; throws when the table does not fit. Counts as
 * `countTokens(text, { disallowedSpecial: new Set() })` ("<|endoftext|>" is text). `splitsAtLines`:
 * o200k's split never joins a newline to a following character but whitespace or `/` (only
 * ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes newlines and goes on), and BPE merges within pieces.
 */
export async function loadTableO200kCounter(): Promise<TokenCounter> {
  const table = readRankTable(readFileSync(rankTablePath()));
  const [{ BytePairEncodingCore }, { O200KBase }] = await Promise.all([
    import('gpt-tokenizer/BytePairEncodingCore'),
    import('gpt-tokenizer/encodingParams/o200k_base'),
  ]);
  // Only the byte tokens go through the library's own setup; string tokens are probed in the table.
  const ranks: number[][] = new Array<number[]>(table.size);
  for (const [rank, bytes] of table.byteTokens) ranks[rank] = bytes;
  const core = new BytePairEncodingCore(O200KBase(ranks));
  // The string-token Map the library would build (200,000 entries) is the one field replaced.
  const internals = core as unknown as { bytePairStringRankEncoder?: unknown };
  if (!(internals.bytePairStringRankEncoder instanceof Map))
    throw new Error('gpt-tokenizer internals differ from what the rank table was built for');
  internals.bytePairStringRankEncoder = table;
  if (!linearizeMerges(core))
    throw new Error(
      'gpt-tokenizer internals differ from what the long-piece merge was written for',
    );
  const count = (text: string) => core.countNative(text);
  if (count(PROBE) !== table.probeTokens)
    throw new Error('the rank table does not reproduce gpt-tokenizer counts');
  return { name: 'o200k', count, splitsAtLines: true };
}

let loading: Promise<TokenCounter> | undefined;

/** The o200k counter, loaded once; the heuristic counter when the table cannot be used. */
export function loadO200kCounter(): Promise<TokenCounter> {
  loading ??= loadTableO200kCounter().catch(() => heuristicCounter);
  return loading;
}
