import { describe, expect, it } from 'vitest';
import { runShape } from '../../src/cli/code-cache.js';

describe('runShape (the kind of run a code cache covers)', () => {
  it('keeps command words, option names and short values; drops text, ids, paths and numbers', () => {
    expect(runShape(['boot', '--level', '2', '--fast'])).toBe('--fast+--level+2+boot');
    expect(runShape(['boot', '--format=xml', '--budget=600'])).toBe('--budget+--format=xml+boot');
    expect(runShape(['plan', 'add', 'Write the test', '--after', 't1'])).toBe('--after+add+plan');
    expect(runShape(['done', 't3', '--files', 'src/**', 'README.md'])).toBe('--files+done');
    expect(runShape(['next', 'x'])).toBe('next+x');
  });

  it('is the same for the same kind of run in any order, and `-` for none', () => {
    expect(runShape(['--json', 'status'])).toBe(runShape(['status', '--json']));
    expect(runShape([])).toBe('-');
  });
});
