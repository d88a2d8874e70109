// The string hashes that spare a boot node:crypto: FNV-1a's published vectors, and a 64-bit
// digest that tells apart every one of many near-identical inputs.
import { describe, expect, it } from 'vitest';
import { fnv1a, hash64 } from '../../src/text/fnv.js';

describe('fnv1a', () => {
  it('matches the published 32-bit FNV-1a vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('hash64', () => {
  it('gives 16 hex digits, the same for the same text', () => {
    expect(hash64('plan')).toMatch(/^[0-9a-f]{16}$/);
    expect(hash64('plan')).toBe(hash64('plan'));
    expect(hash64('')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tells apart 100,000 texts that differ in one character, and both halves vary', () => {
    const seen = new Set<string>();
    const halves = [new Set<string>(), new Set<string>()];
    for (let i = 0; i < 100_000; i++) {
      const digest = hash64(`[["t-${i.toString(36)}","done"]]`);
      seen.add(digest);
      halves[0]!.add(digest.slice(0, 8));
      halves[1]!.add(digest.slice(8));
    }
    expect(seen.size).toBe(100_000);
    expect(Math.min(halves[0]!.size, halves[1]!.size)).toBeGreaterThan(99_990);
  });
});
