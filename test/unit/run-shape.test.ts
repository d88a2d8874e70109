import { describe, expect, it } from 'vitest';
import { cacheFamily, runShape } from '../../src/cli/code-cache.js';
import { COMMANDS, commandWord } from '../../src/cli/command-list.js';
import { processIo } from '../../src/cli/output.js';
import { createProgram } from '../../src/cli/program.js';

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

describe('cacheFamily (which code cache a run uses)', () => {
  it('is the command word, past global options and their values', () => {
    expect(cacheFamily(['status', '--json'])).toBe('status');
    expect(cacheFamily(['--agent', 'alice', 'boot'])).toBe('boot');
    expect(cacheFamily(['-C', 'sub', 'hook', 'claude'])).toBe('hook');
  });

  it('shares one cache for anything that is not a command: typos and names cannot multiply caches', () => {
    expect(cacheFamily(['stauts'])).toBe('-');
    expect(cacheFamily(['alice'])).toBe('-');
    expect(cacheFamily([])).toBe('-');
  });

  it("is `help` for help and `-` for an object's own keys", () => {
    expect(cacheFamily(['help', 'plan'])).toBe('help');
    expect(commandWord('constructor')).toBeUndefined();
    expect(cacheFamily(['toString'])).toBe('-');
  });

  it('the program registers exactly the command list, in its order', async () => {
    const program = await createProgram({
      exitCode: 0,
      argv: [],
      io: processIo(),
      makeContext: () => ({}) as never,
    });
    const names = program.commands.map((c) => c.name());
    expect(names).toEqual(Object.keys(COMMANDS));
  });
});
