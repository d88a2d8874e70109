import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeJson, safeText, safeValue } from '../../src/text/safe-text.js';
import { CONTROL } from '../helpers/controls.js';

describe('safeText', () => {
  it('shows C0 controls and DEL as Control Pictures, C1 and bidi overrides as U+FFFD', () => {
    expect(safeText('a\u001b]0;pwned\u0007\u001b[2J\u007fb')).toBe('a␛]0;pwned␇␛[2J␡b');
    expect(safeText('x\u009b31m\u202eevil\u2066')).toBe('x\ufffd31m\ufffdevil\ufffd');
    expect(safeText('nul\u0000 bs\u0008 ff\u000c')).toBe('nul␀ bs␈ ff␌');
  });

  it('keeps tab, newline and CRLF; a lone CR would overwrite the line', () => {
    expect(safeText('a\tb\nc\r\nd')).toBe('a\tb\nc\r\nd');
    expect(safeText('safe\rEVIL')).toBe('safe␍EVIL');
  });

  it('makes newlines, CRs and tabs visible too in text meant for one line (a path)', () => {
    expect(safeText('src/a\nb\r\nc\td.js', { oneLine: true })).toBe('src/a␊b␍␊c␉d.js');
    expect(safeText('\u001b[31mred\u001b[39m\n', { oneLine: true, ownColors: true })).toBe(
      '\u001b[31mred\u001b[39m␊',
    );
  });

  it('keeps text without control characters as it is (non-ASCII, emoji, RTL script)', () => {
    for (const text of ['Ünïcödé · 中文 · 🚀', 'שלום עולם', '`code` <xml a="1"/>'])
      expect(safeText(text)).toBe(text);
  });

  it("spares only the CLI's own color sequences, and only when asked", () => {
    const painted = '\u001b[1mbold\u001b[22m \u001b[31mred\u001b[39m';
    expect(safeText(painted, { ownColors: true })).toBe(painted);
    expect(safeText(painted)).toBe('␛[1mbold␛[22m ␛[31mred␛[39m');
    // Concealed text, a title, the clipboard: never.
    expect(safeText('\u001b[8mhidden\u001b]52;c;Zm9v\u0007', { ownColors: true })).toBe(
      '␛[8mhidden␛]52;c;Zm9v␇',
    );
  });

  it('leaves no control character in any string, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = safeText(text);
        expect(CONTROL.exec(once.replace(/\r\n/g, '\n'))).toBeNull();
        expect(safeText(once)).toBe(once);
      }),
    );
  });
});

describe('safeValue', () => {
  it('neutralises every string of a plain value, keys too, and keeps the rest', () => {
    const value = { 'k\u001b': ['a\u0007', 1, true, null, { b: 'c\u009b' }] };
    expect(safeValue(value)).toEqual({ 'k␛': ['a␇', 1, true, null, { b: 'c\ufffd' }] });
  });
});

describe('safeJson', () => {
  it('escapes what JSON.stringify leaves raw, so that parsing gives the stored text back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const doc = { value, text };
        const json = safeJson(doc, 2);
        expect(CONTROL.exec(json.replace(/\n/g, ''))).toBeNull();
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(doc)));
      }),
    );
    expect(safeJson('\u009b\u202e')).toBe('"\\u009b\\u202e"');
  });
});
