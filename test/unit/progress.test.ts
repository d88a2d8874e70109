import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProgress } from '../../src/state/progress.js';
import { parseConfig, DEFAULT_CONFIG } from '../../src/state/config.js';
import { decodeStateText, readStateText } from '../../src/state/read-text.js';
import { REPO_ROOT, testdir } from '../helpers/fixtures.js';

const TEMPLATE = readFileSync(join(REPO_ROOT, 'templates', 'progress.yaml'), 'utf8');
const VALID = `version: 1
revision: 3
stage: implementing
plan:
  - id: t1
    title: One
    status: done
  - id: t2
    title: Two
    status: pending
`;

function firstProblem(text: string) {
  const parsed = parseProgress(text, 'progress.yaml');
  expect(parsed.value).toBeUndefined();
  return parsed.problems[0]!;
}

describe('parseProgress', () => {
  it('accepts the template and a typical file', () => {
    expect(parseProgress(TEMPLATE, 'progress.yaml').problems).toEqual([]);
    expect(parseProgress(VALID, 'progress.yaml').value?.plan?.[1]?.id).toBe('t2');
  });

  it('locates a tab indentation error', () => {
    const p = firstProblem('version: 1\nrevision: 0\nplan:\n\t- id: a\n');
    expect(p.location).toMatchObject({ file: 'progress.yaml', line: 4 });
    expect(p.hint).toMatch(/spaces/);
  });

  it('locates an unknown plan status at its line and lists the allowed ones', () => {
    const p = firstProblem(VALID.replace('status: pending', 'status: finished'));
    expect(p.location).toEqual({ file: 'progress.yaml', line: 10, column: 13 });
    expect(p.message).toMatch(
      /plan\[1\]\.status must be one of pending, running, blocked, done, skipped, failed \(found the string "finished"\)/,
    );
  });

  it('rejects plan given as a string', () => {
    const p = firstProblem('version: 1\nrevision: 0\nplan: "do everything"\n');
    expect(p.location.line).toBe(3);
    expect(p.message).toBe('plan must be a list (found the string "do everything")');
  });

  it('rejects duplicate plan ids, pointing at the second', () => {
    const p = firstProblem(VALID.replace('id: t2', 'id: t1'));
    expect(p.location.line).toBe(8);
    expect(p.message).toMatch(/plan id "t1" is used twice/);
  });

  it('lists a duplicate plan id next to schema problems, not only alone', () => {
    const text = VALID.replace('id: t2', 'id: t1').replace('status: pending', 'status: finished');
    const { problems } = parseProgress(text, 'progress.yaml');
    expect(problems.map((p) => [p.location.line, p.message])).toEqual([
      [10, expect.stringMatching(/plan\[1\]\.status must be one of/)],
      [8, expect.stringMatching(/plan id "t1" is used twice/)],
    ]);
    // A newer protocol version stops the checks: the rest may mean something else there.
    expect(parseProgress(text.replace('version: 1', 'version: 2'), 'p').problems).toHaveLength(1);
  });

  it('points an unknown key at the key itself', () => {
    const p = firstProblem(VALID.replace('stage: implementing', 'stgae: implementing'));
    expect(p.location).toEqual({ file: 'progress.yaml', line: 3, column: 1 });
    expect(p.message).toBe('unknown top-level key "stgae"');
  });

  it('refuses a protocol version newer than it knows', () => {
    const p = firstProblem('version: 2\nrevision: 0\n');
    expect(p.message).toMatch(/protocol version 2, newer than this agent-state knows \(1\)/);
    expect(p.hint).toMatch(/^upgrade agent-state: /);
    expect(p.hint).not.toContain('npm install -g agent-state');
  });

  it('reports a missing required key and a non-mapping document', () => {
    expect(firstProblem('version: 1\n').message).toBe(
      '(top level) is missing the required key "revision"',
    );
    expect(firstProblem('- a\n- b\n').message).toMatch(/must be a YAML mapping/);
  });
});

describe('decodeStateText', () => {
  const opts = { display: 'progress.yaml', restoreHint: 'restore it' };
  it('refuses empty, binary, invalid UTF-8 and oversized files with a line', () => {
    expect(() => decodeStateText(new Uint8Array(), opts)).toThrow(/is empty/);
    expect(() => decodeStateText(Buffer.from('a: 1\n\u0000'), opts)).toThrow(/NUL byte/);
    try {
      decodeStateText(Buffer.from([0x61, 0x0a, 0x62, 0xff, 0x0a]), opts);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/not valid UTF-8 \(bad byte at offset 3\)/);
      expect((error as { location: { line: number } }).location.line).toBe(2);
    }
    expect(() => decodeStateText(Buffer.alloc(5 * 1024 * 1024, 0x61), opts)).toThrow(
      /5\.0 MiB, over the 1 MiB limit/,
    );
  });

  it('refuses a directory where the file should be, as invalid state (not a crash)', () => {
    expect(() => readStateText(testdir(), opts)).toThrow(
      expect.objectContaining({
        code: 'INVALID',
        message: 'a directory stands where the file should be',
        location: { file: 'progress.yaml' },
        hint: 'remove the directory, then restore it',
      }),
    );
  });

  it('strips a byte order mark', () => {
    expect(decodeStateText(Buffer.from('\ufeffa: 1\n'), opts)).toBe('a: 1\n');
  });
});

describe('parseConfig', () => {
  it('fills defaults for missing keys and for an empty file', () => {
    expect(parseConfig('', 'config.yaml').value).toEqual(DEFAULT_CONFIG);
    const partial = parseConfig('test: npm test\nevidence:\n  keep: 3\n', 'config.yaml').value!;
    expect(partial.test).toBe('npm test');
    expect(partial.evidence).toEqual({ keep: 3, max_bytes: 8192 });
    expect(partial.budget).toEqual(DEFAULT_CONFIG.budget);
  });

  it('accepts the shipped template', () => {
    const template = readFileSync(join(REPO_ROOT, 'templates', 'config.yaml'), 'utf8');
    expect(parseConfig(template, 'config.yaml').problems).toEqual([]);
  });

  it('locates a bad value', () => {
    const parsed = parseConfig('evidence:\n  keep: 0\n', 'config.yaml');
    expect(parsed.problems[0]).toMatchObject({
      location: { line: 2 },
      message: expect.stringMatching(/evidence\.keep/),
    });
  });
});
