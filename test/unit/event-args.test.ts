import { describe, expect, it } from 'vitest';
import { commandOf } from '../../src/cli/command-word.js';
import { coerceFieldValue, parseEventArgv } from '../../src/cli/event-args.js';
import { eventInputs } from '../../src/cli/event-run.js';

describe('commandOf', () => {
  it('finds the command word after global options, and notices help', () => {
    expect(commandOf(['event', 'boot'])).toEqual({ command: 'event', help: false });
    expect(commandOf(['-C', 'dir', '--json', 'event', 'boot'])).toEqual({
      command: 'event',
      help: false,
    });
    expect(commandOf(['--cwd', 'event', 'status'])).toEqual({ command: 'status', help: false });
    expect(commandOf(['event', '--help'])).toEqual({ command: 'event', help: true });
    expect(commandOf(['-q'])).toEqual({ command: null, help: false });
  });
});

describe('parseEventArgv', () => {
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
      fields: { level: 2 },
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
    ).toMatchObject({ type: 'x.y', fields: { a: 1, b: 'two=2' }, stdin: true, actor: 'user' });
    expect(() => parseEventArgv(['event', 'boot', '--actor', 'bot'])).toThrow(
      /--actor must be one of/,
    );
    expect(() => parseEventArgv(['event', 'boot', '--field'])).toThrow(/--field needs key=value/);
    expect(() => parseEventArgv(['event', 'boot', '--field', '=1'])).toThrow(
      /--field needs key=value/,
    );
    expect(() => parseEventArgv(['event', 'a.b', 'c.d'])).toThrow(/unexpected argument "c.d"/);
    expect(() => parseEventArgv(['--verbose', 'event', 'boot'])).toThrow(
      /unknown option --verbose/,
    );
    expect(() => parseEventArgv(['event', 'boot', '-C'])).toThrow(/option -C needs a value/);
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
    const args = parseEventArgv([
      'event',
      '--stdin',
      '--json',
      '{"ok":false,"name":"a"}',
      '--field',
      'name=b',
    ]);
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
    const args = parseEventArgv(['event', 'boot', '--stdin']);
    expect(eventInputs(args, () => '[{"level":1},{"level":2}]')).toHaveLength(2);
    expect(() => eventInputs(args, () => '{"a":1}\n[1]\n')).toThrow(/stdin:2 is not a JSON object/);
    expect(() => eventInputs(args, () => '  \n')).toThrow(/stdin is empty/);
  });
});
