// Run before every test file of every tier (vitest.config.ts `setupFiles`), also when files share
// a worker's modules (isolate: false): the file's temp directories go when it ends, and no test
// leaves the process changed for the next one. The CLI runs in this process (fixtures.ts runCli),
// so a call that set process.exitCode, moved the directory, touched process.env or left a signal
// handler behind would change what the next test sees.
import { afterAll, afterEach, expect } from 'vitest';
import { removeTestdirs } from './fixtures.js';

afterAll(removeTestdirs);

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
// What the Claude Agent SDK sets in process.env itself when a query starts (its version, the
// lookup rule it asks of child processes), at times of its own: not a change of ours.
const LIBRARY_ENV = new Set(['CLAUDE_AGENT_SDK_VERSION', 'NoDefaultCurrentDirectoryInExePath']);
const processState = () => ({
  exitCode: process.exitCode,
  cwd: process.cwd(),
  env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !LIBRARY_ENV.has(k))),
  listeners: SIGNALS.map((s) => `${s}: ${process.listenerCount(s)}`),
});
const before = processState();
afterEach(() => {
  expect(processState(), 'a test left the process changed').toEqual(before);
});
