// Run before every test file of every tier (vitest.config.ts `setupFiles`), also when files share
// a worker's modules (isolate: false): the file's temp directories go when it ends, and no test
// leaves the process changed for the next one. The CLI runs in this process (fixtures.ts runCli),
// so a call that set process.exitCode, moved the directory, touched process.env or left a signal
// handler behind would change what the next test sees.
import { afterAll, afterEach, expect } from 'vitest';
import { removeTestdirs } from './fixtures.js';

afterAll(removeTestdirs);

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const processState = () => ({
  exitCode: process.exitCode,
  cwd: process.cwd(),
  env: { ...process.env },
  listeners: SIGNALS.map((s) => `${s}: ${process.listenerCount(s)}`),
});
const before = processState();
afterEach(() => {
  expect(processState(), 'a test left the process changed').toEqual(before);
});
