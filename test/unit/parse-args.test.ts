import { describe, expect, it } from 'vitest';
import { bootCommand } from '../../src/cli/commands/boot.js';
import { coerceFieldValue, eventCommand, eventInputs } from '../../src/cli/commands/event.js';
import { hookCommand } from '../../src/cli/commands/hook.js';
import { editDistance, parseArgs, scanArgv } from '../../src/cli/parse-args.js';

const parseEventArgv = (argv: string[]) => {
  const { globals, args, options } = parseArgs(argv, eventCommand.spec);
  return { ...globals, type: args[0], payload: options.json, options };
};

describe('scanArgv', () => {
  it('finds the command words after global options, and notices help and the version', () => {
    expect(scanArgv(['event', 'boot'])).toMatchObject({ words: ['event', 'boot'], help: false });
    expect(scanArgv(['-C', 'dir', '--json', 'event', 'boot'])).toMatchObject({
      words: ['event', 'boot'],
      globals: { cwd: 'dir', json: true },
    });
    expect(scanArgv(['--cwd', 'event', 'status']).words).toEqual(['status']);
    expect(scanArgv(['event', '--help'])).toMatchObject({ words: ['event'], help: true });
    expect(scanArgv(['-q'])).toMatchObject({ words: [], globals: { quiet: true } });
    expect(scanArgv(['--version'])).toMatchObject({ version: true });
    expect(scanArgv(['hook', 'pre-commit', '--', '--json']).globals.json).toBe(false);
  });
});

describe('parseArgs', () => {
  it('parses a spec: values, choices, defaults, booleans, `--` and the globals anywhere', () => {
    expect(
      parseArgs(
        ['--json', 'boot', '--level=2', '--fast', '-q', '--format', 'xml'],
        bootCommand.spec,
      ),
    ).toEqual({
      globals: { json: true, quiet: true, color: true },
      args: [],
      options: { level: '2', fast: true, format: 'xml', role: 'execution' },
    });
    expect(parseArgs(['hook', 'pre-commit', '--', '--x'], hookCommand.spec).args).toEqual([
      'pre-commit',
      '--x',
    ]);
  });

  it("refuses what commander refuses, in commander's words", () => {
    const boot =
      (...argv: string[]) =>
      () =>
        parseArgs(['boot', ...argv], bootCommand.spec);
    expect(boot('--role', 'boss')).toThrow(
      "option '--role <role>' argument 'boss' is invalid. Allowed choices are execution, planning, review, recovery.",
    );
    expect(boot('--levle', '2')).toThrow("unknown option '--levle'");
    // The nearest option as the fix, as commander's route gives it: the command's or a global one.
    const hint = (...argv: string[]) => {
      try {
        boot(...argv)();
      } catch (error) {
        return (error as { hint?: string }).hint;
      }
    };
    expect(hint('--levle', '2')).toBe('did you mean `--level`? See `agent-state --help`');
    expect(hint('--jsno')).toBe('did you mean `--json`? See `agent-state --help`');
    expect(boot('--budget')).toThrow("option '--budget <tokens>' argument missing");
    expect(boot('extra')).toThrow("too many arguments for 'boot'. Expected 0 arguments but got 1.");
    expect(() => parseArgs(['hook'], hookCommand.spec)).toThrow("missing required argument 'name'");
    expect(() => parseArgs(['hook', 'pre-push'], hookCommand.spec)).toThrow(
      /value 'pre-push' is invalid for argument 'name'/,
    );
  });

  it('measures edit distance', () => {
    expect(editDistance('stauts', 'status')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('parseArgs with the event spec', () => {
  it('takes --json followed by an object after the command as the fields, otherwise as JSON output', () => {
    expect(parseEventArgv(['event', 'tool.started', '--json', '{"name":"x"}'])).toMatchObject({
      type: 'tool.started',
      payload: '{"name":"x"}',
      json: false,
    });
    expect(parseEventArgv(['event', 'boot', '--json'])).toMatchObject({ type: 'boot', json: true });
    expect(parseEventArgv(['--json', 'event', '{"a":1}'])).toMatchObject({
      type: '{"a":1}',
      json: true,
    });
    expect(parseEventArgv(['event', 'boot', '--json', '--field', 'level=2'])).toMatchObject({
      json: true,
      options: { field: ['level=2'] },
    });
    expect(parseEventArgv(['event', 'boot', '--json={"level":1}'])).toMatchObject({
      payload: '{"level":1}',
    });
  });

  it('accepts every form of the global options, before or after the command', () => {
    for (const argv of [
      ['-C', '/r', 'event', 'boot'],
      ['-C/r', 'event', 'boot'],
      ['--cwd=/r', 'event', 'boot'],
      ['event', 'boot', '--cwd', '/r'],
    ])
      expect(parseEventArgv(argv)).toMatchObject({ cwd: '/r', type: 'boot' });
    expect(parseEventArgv(['-q', 'event', 'boot', '--no-color'])).toMatchObject({ quiet: true });
  });

  it('collects fields, stdin and the actor; refuses what it does not know', () => {
    expect(
      parseEventArgv([
        'event',
        'x.y',
        '-f',
        'a=1',
        '--field=b=two=2',
        '--stdin',
        '--actor',
        'user',
      ]),
    ).toMatchObject({
      type: 'x.y',
      options: { field: ['a=1', 'b=two=2'], stdin: true, actor: 'user' },
    });
    expect(() => parseEventArgv(['event', 'boot', '--actor', 'bot'])).toThrow(
      /option '--actor <actor>' argument 'bot' is invalid/,
    );
    expect(() => parseEventArgv(['event', 'boot', '--field'])).toThrow(
      /option '-f, --field <key=value>' argument missing/,
    );
    const fields = parseArgs(['event', 'boot', '--field', '=1'], eventCommand.spec);
    expect(() => eventInputs(fields, () => '')).toThrow(/--field needs key=value/);
    expect(() => parseEventArgv(['event', 'a.b', 'c.d'])).toThrow(/too many arguments for 'event'/);
    expect(() => parseEventArgv(['--verbose', 'event', 'boot'])).toThrow(
      /unknown option '--verbose'/,
    );
    expect(() => parseEventArgv(['event', 'boot', '-C'])).toThrow(/argument missing/);
  });

  it('types true, false, null and numbers, and leaves the rest strings', () => {
    expect(
      [
        'true',
        'false',
        'null',
        '0',
        '-3',
        '2.5',
        '007',
        '1e3',
        '',
        'grep',
        '12345678901234567',
      ].map(coerceFieldValue),
    ).toEqual([true, false, null, 0, -3, 2.5, '007', '1e3', '', 'grep', '12345678901234567']);
  });
});

describe('eventInputs', () => {
  it('merges stdin objects, --json and --field in that order of precedence', () => {
    const args = parseArgs(
      ['event', '--stdin', '--json', '{"ok":false,"name":"a"}', '--field', 'name=b'],
      eventCommand.spec,
    );
    const inputs = eventInputs(
      args,
      () => '{"type":"tool.finished","name":"s","tokens":3}\n{"type":"boot"}\n',
    );
    expect(inputs).toEqual([
      { type: 'tool.finished', name: 'b', ok: false, tokens: 3 },
      { type: 'boot', name: 'b', ok: false },
    ]);
  });

  it('reads an array from stdin, and says which line of JSON Lines is broken', () => {
    const args = parseArgs(['event', 'boot', '--stdin'], eventCommand.spec);
    expect(eventInputs(args, () => '[{"level":1},{"level":2}]')).toHaveLength(2);
    expect(() => eventInputs(args, () => '{"a":1}\n[1]\n')).toThrow(/stdin:2 is not a JSON object/);
    expect(() => eventInputs(args, () => '  \n')).toThrow(/stdin is empty/);
  });
});
