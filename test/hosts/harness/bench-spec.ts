// What bench/hosts.mjs needs to time a host: its driver, and the tool call a scripted session
// repeats (one that the host's PreToolUse and PostToolUse hooks both see). A driver module
// exports one (`export const bench: BenchSpec`) to be benchmarked.
import type { ToolCall } from './model-stub.js';
import type { HostDriver } from './run-host.js';

export interface BenchSpec {
  driver: HostDriver;
  /** The i-th tool call of a session: a shell command that does nothing (`true`). */
  toolCall(i: number): ToolCall;
}
