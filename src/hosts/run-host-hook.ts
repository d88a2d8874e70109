// `agent-state hook <host>`: one hook call from stdin to stdout. It never breaks the host's
// session: bad stdin, a repository without .agent/, an invalid state file or a bug all end in
// exit 0 with one line on stderr. The only refusals are the documented ones (a PreToolUse deny,
// a Stop or PreCompact block), and those are JSON on stdout with exit 0 too.
import { AgentStateError } from '../errors.js';
import { describeError, errorText } from '../error-report.js';
import { findRepo } from '../state/find-root.js';
import { safeText, safeValue } from '../text/safe-text.js';
import type { HostAdapter } from './host-adapter.js';
import type { HostHookEvent, HostHookOutcome } from './host-hook-event.js';
import { HostHookInputError, parseHostHookPayload } from './host-hook-payload.js';
import { type HostName } from './host-names.js';
import { loadHost } from './hosts.js';

export interface HostHookResult {
  stdout: string;
  /** One line, or '' (the hook said nothing to the human). */
  stderr: string;
  /** Always 0: a hook must not break the session (refusals are JSON on stdout). */
  exitCode: 0;
  /** The parsed event, when stdin parsed (for tests and logs). */
  event: HostHookEvent | null;
}

export interface RunHostHookOptions {
  /** The directory to fall back to when the payload has no `cwd`. */
  cwd: string;
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
}

const note = (host: HostName, message: string) =>
  safeText(`agent-state hook ${host}: ${message}; the session continues\n`);

// The one error mapper's line (src/error-report.ts), as every other route says it.
const describe = (error: unknown) =>
  error instanceof HostHookInputError ? error.message : errorText(describeError(error));

/**
 * The text to print on stdout for an outcome, in the host's format ('' when there is nothing to
 * say). The host hands the strings to the model (and shows systemMessage to the user) as they
 * are: they pass safeValue first.
 */
export function renderHostHookOutput(
  host: HostAdapter,
  event: HostHookEvent,
  outcome: HostHookOutcome,
): string {
  if (!outcome.context && !outcome.deny && !outcome.block) return '';
  const out = host.render(event, outcome);
  return Object.keys(out).length === 0 ? '' : `${JSON.stringify(safeValue(out))}\n`;
}

/** Runs one hook call; never throws, always exit code 0. */
export async function runHostHook(
  name: HostName,
  input: string,
  options: RunHostHookOptions,
): Promise<HostHookResult> {
  let event: HostHookEvent | null = null;
  try {
    const host = await loadHost(name);
    event = parseHostHookPayload(host, input, options.cwd);
    if (event.kind === 'other') return { stdout: '', stderr: '', exitCode: 0, event };
    let repo;
    try {
      repo = findRepo(event.cwd);
    } catch (error) {
      // Not every repository uses agent-state: stay silent there, say why only on stderr.
      if (!(error instanceof AgentStateError) || error.code !== 'NOT_INITIALIZED') throw error;
      const stderr = note(name, 'no .agent/ here (run `agent-state init` to use it)');
      return { stdout: '', stderr, exitCode: 0, event };
    }
    const { handleHookEvent } = await import('./handle-event.js');
    const outcome = await handleHookEvent(host, event, repo, options.env);
    const stderr = outcome.note ? note(name, outcome.note) : '';
    return { stdout: renderHostHookOutput(host, event, outcome), stderr, exitCode: 0, event };
  } catch (error) {
    const debug =
      (options.env ?? process.env).AGENT_STATE_DEBUG && error instanceof Error
        ? `${error.stack}\n`
        : '';
    return { stdout: '', stderr: note(name, describe(error)) + debug, exitCode: 0, event };
  }
}
