// The prebuilt o200k rank table: every token of gpt-tokenizer's ranks is found at its rank,
// nothing else is found, and counts through it equal the stock module's on real and random text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTableO200kCounter, rankTablePath } from '../../src/boot/o200k-counter.js';
import {
  PROBE,
  buildRankTable,
  readRankTable,
  type RankTable,
} from '../../src/boot/o200k-table.js';
import type { TokenCounter } from '../../src/boot/types.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

describe('the o200k rank table', () => {
  let table: RankTable;
  let counter: TokenCounter;
  beforeAll(async () => {
    table = readRankTable(readFileSync(rankTablePath()));
    counter = await loadTableO200kCounter();
  });

  it('finds every string token at its rank and nothing else', () => {
    let strings = 0;
    ranks.forEach((token, rank) => {
      if (typeof token !== 'string') return;
      strings++;
      if (table.get(token) !== rank)
        expect.fail(`rank ${rank} (${JSON.stringify(token)}) not found`);
    });
    expect(strings).toBeGreaterThan(190_000);
    for (const absent of ['', 'zzzzzzzzzzzzqqq', '分页存储层冻结了', '\u0000\u0001'])
      expect(table.get(absent)).toBeUndefined();
    expect(table.byteTokens.length).toBe(ranks.filter((t) => typeof t !== 'string').length);
    expect(table.probeTokens).toBe(plain(PROBE));
  });

  it('counts exactly like the stock module on this repository’s text and on random text', () => {
    for (const file of [
      'README.md',
      'docs/protocol.md',
      'src/boot/fit-budget.ts',
      'test/fixtures/boot/goals-zh.md',
      'package-lock.json',
    ]) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      expect(counter.count(text), file).toBe(plain(text));
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        (a, b) => {
          expect(counter.count(a + b)).toBe(plain(a + b));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('splits at lines: a text ending in a newline and one starting with `#`, `<` or a letter count apart', () => {
    expect(counter.splitsAtLines).toBe(true);
    const line = fc.string({ unit: 'grapheme', maxLength: 80 });
    const start = fc.constantFrom('#', '<', '-', 'a', 'Z', '中', '`', '*', '1', ')', '\u0301');
    fc.assert(
      fc.property(
        line,
        fc.constantFrom('\n', '\n\n', ' \n', ')\n', '\t\n\n', '`\n', '\r\n'),
        start,
        line,
        (a, end, first, b) => {
          const left = a + end;
          const right = first + b;
          expect(plain(left) + plain(right)).toBe(plain(left + right));
          expect(counter.count(left) + counter.count(right)).toBe(counter.count(left + right));
        },
      ),
      { numRuns: 1000 },
    );
    // Whitespace or `/` after the newline can join the pieces: the promise excludes them.
    expect(plain(')\n') + plain('//')).not.toBe(plain(')\n//'));
    expect(plain('x\n') + plain('\n\nx')).not.toBe(plain('x\n\n\nx'));
  });

  it('refuses a damaged table', () => {
    const good = buildRankTable(['a', 'b', [255]], 3);
    expect(readRankTable(good).get('b')).toBe(1);
    expect(() => readRankTable(good.subarray(0, good.length - 1))).toThrow(/truncated/);
    const wrong = Buffer.from(good);
    wrong.writeUInt32LE(99, 4);
    expect(() => readRankTable(wrong)).toThrow(/version/);
  });
});
