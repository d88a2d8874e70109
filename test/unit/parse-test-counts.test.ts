import { describe, expect, it } from 'vitest';
import { parseTestCounts } from '../../src/checkpoint/parse-test-counts.js';

describe('parseTestCounts', () => {
  const cases: [string, string, ReturnType<typeof parseTestCounts>][] = [
    [
      'vitest',
      '\x1b[2m Test Files \x1b[22m 2 passed (2)\n\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m12 passed\x1b[39m\x1b[22m | \x1b[31m1 failed\x1b[39m (13)\n',
      { runner: 'vitest', passed: 12, failed: 1 },
    ],
    [
      'vitest all passed',
      ' Test Files  1 passed (1)\n      Tests  4 passed (4)\n',
      { runner: 'vitest', passed: 4, failed: 0 },
    ],
    [
      'jest',
      'Test Suites: 1 failed, 2 passed, 3 total\nTests:       1 failed, 12 passed, 13 total\n',
      { runner: 'jest', passed: 12, failed: 1 },
    ],
    [
      'node:test tap',
      '# tests 5\n# suites 0\n# pass 4\n# fail 1\n',
      { runner: 'node:test', passed: 4, failed: 1 },
    ],
    [
      'node:test spec',
      'ℹ tests 3\nℹ pass 3\nℹ fail 0\nℹ cancelled 0\n',
      { runner: 'node:test', passed: 3, failed: 0 },
    ],
    [
      'mocha',
      '  12 passing (34ms)\n  1 failing\n\n  1) thing\n',
      { runner: 'mocha', passed: 12, failed: 1 },
    ],
    [
      'pytest',
      '============ 1 failed, 12 passed, 2 skipped in 0.52s ============\n',
      { runner: 'pytest', passed: 12, failed: 1 },
    ],
    [
      'pytest errors',
      '==== 3 passed, 2 errors in 1.01s ====\n',
      { runner: 'pytest', passed: 3, failed: 2 },
    ],
    [
      'go -v',
      '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.00s)\nFAIL\n',
      { runner: 'go', passed: 1, failed: 1 },
    ],
    [
      'go packages',
      'ok  \texample.com/a\t0.003s\nFAIL\texample.com/b\t0.010s\n',
      { runner: 'go', passed: 1, failed: 1 },
    ],
    [
      'cargo',
      'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored\n',
      { runner: 'cargo', passed: 5, failed: 1 },
    ],
    ['unknown', 'all good\n', null],
  ];
  for (const [name, output, expected] of cases) {
    it(`reads ${name}`, () => expect(parseTestCounts(output)).toEqual(expected));
  }
});
