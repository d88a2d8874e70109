// Golden outputs of the boot prompt: every level × format on the rich fixture, counted with the
// real o200k tokenizer. Refresh after an intended change with UPDATE_GOLDEN=1 and review the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootDocument } from '../../src/boot/boot-document.js';
import { loadO200kCounter } from '../../src/boot/o200k-counter.js';
import { renderBoot } from '../../src/boot/render-boot.js';
import type { BootRendering } from '../../src/boot/render-boot.js';
import type { BootFormat, BootLevel, TokenCounter } from '../../src/boot/types.js';
import { richContext } from '../fixtures/boot/rich-context.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

const GOLDEN = join(REPO_ROOT, 'test', 'fixtures', 'golden');
const EXTENSIONS: Record<BootFormat, string> = { markdown: 'md', xml: 'xml', json: 'json' };
const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

function printed(rendering: BootRendering): string {
  return rendering.format === 'json'
    ? `${JSON.stringify(bootDocument(rendering), null, 2)}\n`
    : rendering.text;
}

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  expect(
    existsSync(file),
    `${name} is missing: run UPDATE_GOLDEN=1 npx vitest run ${import.meta.filename}`,
  ).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe('renderBoot on the rich fixture', () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadO200kCounter();
  });
  const render = (level: BootLevel, format: BootFormat = 'markdown') =>
    renderBoot(richContext(), { level, format, counter });

  for (const level of [1, 2, 3] as const) {
    for (const format of ['markdown', 'xml', 'json'] as const) {
      it(`level ${level} as ${format} matches its golden file`, () => {
        golden(`boot-level${level}.${EXTENSIONS[format]}`, printed(render(level, format)));
      });
    }
  }

  it('grows strictly from level 1 to 2 to 3, in every format', () => {
    for (const format of ['markdown', 'xml', 'json'] as const) {
      const [one, two, three] = ([1, 2, 3] as const).map((l) => render(l, format));
      expect(one!.tokens.total).toBeLessThan(two!.tokens.total);
      expect(two!.tokens.total).toBeLessThan(three!.tokens.total);
      // Each level keeps every line of the level below (but the header and the instructions).
      const lines = (r: BootRendering) =>
        new Set(r.text.split('\n').filter((l) => !/^(# |<header>|Level \d|<agent-boot)/.test(l)));
      for (const line of lines(one!)) expect(lines(two!).has(line), line).toBe(true);
      for (const line of lines(two!)) expect(lines(three!).has(line), line).toBe(true);
    }
  });

  it('reports a total equal to gpt-tokenizer’s o200k count of the printed text', () => {
    for (const level of [1, 2, 3] as const) {
      for (const format of ['markdown', 'xml', 'json'] as const) {
        const rendering = render(level, format);
        expect(rendering.tokens.total).toBe(plain(rendering.text));
        expect(rendering.text).toContain(`${rendering.tokens.total}/12000 tokens`);
      }
    }
  });

  it('applies the multiplier to every figure', () => {
    const context = richContext();
    context.config.budget.multiplier = 1.2;
    const rendering = renderBoot(context, { level: 2, counter });
    expect(rendering.tokens.total).toBe(Math.ceil(plain(rendering.text) * 1.2));
    expect(rendering.text).toContain(`${rendering.tokens.total}/12000 tokens`);
  });

  it('orders the must-keep sections first, as the issue asks', () => {
    const keys = render(3).sections.map((s) => s.key);
    expect(keys.slice(0, 6)).toEqual([
      'header',
      'goal',
      'forbidden',
      'constraints',
      'next-action',
      'current-step',
    ]);
  });

  it('marks done items as verified or STALE with the files, at level 2 and up', () => {
    const text = render(2).text;
    expect(text).toContain('- [x] t1 Write a failing test for ?page and ?limit — done, verified');
    expect(text).toContain(
      '- [x] t3 Validate limit (1–100) and answer 400 otherwise — done, STALE: src/routes/params.js changed — re-check before relying on it',
    );
    expect(render(1).text).not.toContain('verified');
  });

  it('writes well-formed XML: one element per section, text escaped', () => {
    const context = richContext();
    context.progress.memory!.working!.push('Compare with a < b && c > d, then <b>bold</b>');
    const xml = renderBoot(context, { level: 3, format: 'xml', counter }).text;
    expect(xml).toContain('Compare with a &lt; b &amp;&amp; c > d, then &lt;b>bold&lt;/b>');
    const tags = [...xml.matchAll(/<(\/?)([a-z-]+)[^>]*>/g)];
    const stack: string[] = [];
    for (const [, close, name] of tags) {
      if (close) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
    // Only the tags remain once the tags are taken out: every other "<" was escaped.
    expect(xml.replace(/<\/?[a-z-]+[^>]*>/g, '')).not.toContain('<');
  });

  it('is byte-identical for the same context at the same time', () => {
    expect(render(3, 'xml').text).toBe(render(3, 'xml').text);
    expect(printed(render(2, 'json'))).toBe(printed(render(2, 'json')));
  });
});
