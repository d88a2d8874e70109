// The one error mapper: every error becomes a code, an exit code, a message and a fix.
import { describe, expect, it } from 'vitest';
import { describeError, errorDocument, errorText, EXIT } from '../../src/error-report.js';
import {
  BusyError,
  CancelledError,
  CheckFailedError,
  ConflictError,
  InvalidStateError,
  NotInitializedError,
  UsageError,
} from '../../src/errors.js';

describe('describeError', () => {
  it('gives each library error its documented exit code', () => {
    const cases: [Error, string, number][] = [
      [new UsageError('u'), 'USAGE', EXIT.USAGE],
      [new InvalidStateError('i'), 'INVALID', EXIT.USAGE],
      [new NotInitializedError('n'), 'NOT_INITIALIZED', EXIT.NOT_INITIALIZED],
      [new BusyError('b'), 'BUSY', EXIT.BUSY],
      [new ConflictError('c'), 'CONFLICT', EXIT.BUSY],
      [new CheckFailedError('f'), 'CHECK_FAILED', EXIT.CHECK_FAILED],
      [new CancelledError('x'), 'CANCELLED', EXIT.CANCELLED],
    ];
    for (const [error, code, exit] of cases)
      expect(describeError(error)).toMatchObject({
        code,
        exit,
        message: error.message,
        stack: undefined,
      });
  });

  it('calls a refused file operation IO (not a bug) and anything else INTERNAL', () => {
    const enotdir = Object.assign(new Error('ENOTDIR: not a directory'), {
      code: 'ENOTDIR',
      path: '/r/.agent/log/events.jsonl',
    });
    expect(describeError(enotdir)).toMatchObject({
      code: 'IO',
      exit: EXIT.INTERNAL,
      message: 'cannot access /r/.agent/log/events.jsonl: ENOTDIR',
    });
    const bug = describeError(new TypeError('x is undefined'));
    expect(bug).toMatchObject({
      code: 'INTERNAL',
      exit: 70,
      message: 'internal error: x is undefined',
    });
    expect(bug.hint).toMatch(/this is a bug/);
    expect(bug.stack).toContain('TypeError');
    expect(describeError('thrown string')).toMatchObject({
      message: 'internal error: thrown string',
    });
  });

  it('renders one line and the --json document', () => {
    const report = describeError(
      new InvalidStateError('bad indentation', {
        location: { file: '.agent/state/progress.yaml', line: 3, column: 2 },
        hint: 'indent with spaces',
      }),
    );
    expect(errorText(report)).toBe(
      '.agent/state/progress.yaml:3:2: bad indentation (fix: indent with spaces)',
    );
    expect(errorDocument(report)).toEqual({
      error: {
        code: 'INVALID',
        exit_code: 2,
        message: 'bad indentation',
        file: '.agent/state/progress.yaml',
        line: 3,
        column: 2,
        hint: 'indent with spaces',
      },
    });
  });
});
