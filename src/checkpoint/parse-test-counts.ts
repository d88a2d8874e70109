// Reading pass/fail counts from the tail of a test runner's output (pure). Runners recognized:
// vitest, jest, node:test, mocha, pytest, go test, cargo test; otherwise the exit code alone.

/** Counts read from a runner's summary. */
export interface TestCounts {
  runner: 'vitest' | 'jest' | 'node:test' | 'mocha' | 'pytest' | 'go' | 'cargo';
  passed: number;
  failed: number;
}

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

function count(text: string, word: RegExp): number {
  const match = word.exec(text);
  return match ? Number(match[1]) : 0;
}

function lastMatch(text: string, pattern: RegExp): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(pattern)) last = match as RegExpExecArray;
  return last;
}

type Reader = (text: string) => TestCounts | null;

// The `N passed` and `N failed` of a summary line.
const passedFailed = (runner: TestCounts['runner'], line: string): TestCounts => ({
  runner,
  passed: count(line, /(\d+) passed/),
  failed: count(line, /(\d+) failed/),
});
const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length;

const READERS: Reader[] = [
  // vitest: "      Tests  12 passed | 1 failed (13)"
  (text) => {
    const m = lastMatch(text, /^\s*Tests\s{2,}(.*\d+ (?:passed|failed).*?)\s*\(\d+\)\s*$/gm);
    return m && passedFailed('vitest', m[1]!);
  },
  // jest: "Tests:       1 failed, 12 passed, 13 total"
  (text) => {
    const m = lastMatch(text, /^Tests:\s+(.*)\d+ total\s*$/gm);
    return m && passedFailed('jest', m[1]!);
  },
  // cargo: "test result: ok. 12 passed; 1 failed; 0 ignored; ..." (one line per test binary)
  (text) => {
    const lines = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed;/gm)];
    const sum = (i: number) => lines.reduce((n, m) => n + Number(m[i]), 0);
    return lines.length === 0 ? null : { runner: 'cargo', passed: sum(1), failed: sum(2) };
  },
  // pytest: "===== 1 failed, 12 passed, 2 skipped in 0.52s ====="
  (text) => {
    const m = lastMatch(
      text,
      /^=+ (.*\d+ (?:passed|failed|errors?).*?) in [\d.]+s(?: \([^)]*\))? =+\s*$/gm,
    );
    if (!m) return null;
    const failed = count(m[1]!, /(\d+) failed/) + count(m[1]!, /(\d+) errors?/);
    return { runner: 'pytest', passed: count(m[1]!, /(\d+) passed/), failed };
  },
  // mocha: "  12 passing (34ms)" and "  1 failing"
  (text) => {
    const passing = lastMatch(text, /^\s*(\d+) passing \(/gm);
    const failing = lastMatch(text, /^\s*(\d+) failing\s*$/gm);
    if (!passing) return null;
    return { runner: 'mocha', passed: Number(passing[1]), failed: Number(failing?.[1] ?? 0) };
  },
  // node:test: TAP "# pass 12" / "# fail 1", or the spec reporter's "ℹ pass 12" / "ℹ fail 1"
  (text) => {
    const pass = lastMatch(text, /^(?:#|\u2139) pass (\d+)\s*$/gm);
    const fail = lastMatch(text, /^(?:#|\u2139) fail (\d+)\s*$/gm);
    if (!pass || !fail) return null;
    return { runner: 'node:test', passed: Number(pass[1]), failed: Number(fail[1]) };
  },
  // go test -v: "--- PASS: TestX (0.00s)" / "--- FAIL: TestY"; without -v, packages: "ok  \tpkg" / "FAIL\tpkg"
  (text) => {
    const pass = matches(text, /^\s*--- PASS: /gm);
    const fail = matches(text, /^\s*--- FAIL: /gm);
    if (pass + fail > 0) return { runner: 'go', passed: pass, failed: fail };
    const okPkgs = matches(text, /^ok\s+\S+\s+(?:[\d.]+s|\(cached\))/gm);
    const failPkgs = matches(text, /^FAIL\s+\S+\s+[\d.]+s/gm);
    return okPkgs + failPkgs === 0 ? null : { runner: 'go', passed: okPkgs, failed: failPkgs };
  },
];

/** The counts in a runner's output, or null when no known summary is found. */
export function parseTestCounts(output: string): TestCounts | null {
  const text = output.replace(ANSI, '').replace(/\r\n?/g, '\n');
  for (const read of READERS) {
    const counts = read(text);
    if (counts) return counts;
  }
  return null;
}
