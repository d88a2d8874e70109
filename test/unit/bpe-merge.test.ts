// The long-piece merge gives exactly gpt-tokenizer's tokens: the same merges (lowest rank first,
// leftmost on ties), only without the quadratic scan. Checked against the stock module (which
// keeps its own scan) on long unbroken runs of every kind of character, and on random text.
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_PIECE_BYTES, linearizeMerges, mergeBoundaries } from '../../src/boot/bpe-merge.js';
import { loadTableO200kCounter } from '../../src/boot/o200k-counter.js';
import type { TokenCounter } from '../../src/boot/types.js';

const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

describe('the long-piece BPE merge', () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadTableO200kCounter();
  });

  it('merges a toy vocabulary like the scan: lowest rank first, leftmost on ties', () => {
    // Ranks of byte strings over "ab": "ab" 0, "aa" 1, "bb" 2, "abab" 3, "aab" 4.
    const ranks = new Map([
      ['ab', 0],
      ['aa', 1],
      ['bb', 2],
      ['abab', 3],
      ['aab', 4],
    ]);
    const split = (text: string) => {
      const starts = mergeBoundaries(text.length, (a, b) => ranks.get(text.slice(a, b)));
      return starts.slice(0, -1).map((start, i) => text.slice(start, starts[i + 1]));
    };
    expect(split('ababab')).toEqual(['abab', 'ab']);
    expect(split('aaab')).toEqual(['aa', 'ab']);
    expect(split('aaa')).toEqual(['aa', 'a']);
    expect(split('bbb')).toEqual(['bb', 'b']);
    expect(split('')).toEqual([]);
    expect(split('a')).toEqual(['a']);
  });

  it('counts long unbroken runs exactly like the stock module', () => {
    const runs = [
      'a'.repeat(3000),
      'A'.repeat(2500),
      'aB'.repeat(1400),
      '中'.repeat(1200),
      '我们需要在不改变存储层的情况下为待办事项接口添加分页功能'.repeat(40),
      '-'.repeat(3000),
      '=+'.repeat(1300),
      '👩‍💻'.repeat(300),
      'é'.repeat(1500),
      Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + 13) % 256)).toString('hex'),
    ];
    for (const run of runs) {
      expect(Buffer.byteLength(run)).toBeGreaterThanOrEqual(LONG_PIECE_BYTES);
      expect(counter.count(run), run.slice(0, 12)).toBe(plain(run));
    }
  });

  it('counts random long words exactly like the stock module', () => {
    const letters = fc.constantFrom(
      ...'abcdefghijklmnopqrstuvwxyzABCXYZéüß中文分页存储한국'.split(''),
    );
    fc.assert(
      fc.property(
        fc.array(letters, { minLength: 100, maxLength: 1500 }),
        fc.constantFrom('', ' ', '\n', '-', '...'),
        (chars, sep) => {
          const text = chars.join('') + sep + chars.reverse().join('');
          expect(counter.count(text)).toBe(plain(text));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives the same tokens as the scan, not only the same count', async () => {
    const [{ BytePairEncodingCore }, { O200KBase }, { default: ranks }] = await Promise.all([
      import('gpt-tokenizer/BytePairEncodingCore'),
      import('gpt-tokenizer/encodingParams/o200k_base'),
      import('gpt-tokenizer/bpeRanks/o200k_base'),
    ]);
    const scan = new BytePairEncodingCore(O200KBase(ranks));
    const heap = new BytePairEncodingCore(O200KBase(ranks));
    expect(linearizeMerges(heap)).toBe(true);
    expect(linearizeMerges({})).toBe(false);
    for (const text of [
      `${'pagination'.repeat(80)} ${'分页存储'.repeat(200)}`,
      `x${'ZZ'.repeat(700)}y ${'-='.repeat(500)}`,
      '👩‍💻🚀'.repeat(200),
    ])
      expect(heap.encodeNative(text, new Set())).toEqual(scan.encodeNative(text, new Set()));
  });
});
