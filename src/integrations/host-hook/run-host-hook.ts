// `agent-state hook <host>`: one hook call from stdin to stdout. It never breaks the host's
// session: bad stdin, a repository without .agent/, an invalid state file or a bug all end in
// exit 0 with one line on stderr. The only refusals are the documented ones (a PreToolUse deny,
// a Stop or PreCompact block), and those are JSON on stdout with exit 0 too.
import { AgentStateError } from '../../errors.js';
import { describeError, errorText } from '../../error-report.js';
import { findRoot } from '../../state/find-root.js';
import type { HookEvent, HostName } from './hook-event.js';
import { HookInputError, parseHookPayload } from './parse-payload.js';
import { renderHookOutput } from './render-output.js';
import { safeText } from '../../text/safe-text.js';
import type { HookServices } from './handle-event.js';

export interface HostHookResult {
  stdout: string;
  /** One line, or '' (the hook said nothing to the human). */
  stderr: string;
  /** Always 0: a hook must not break the session (refusals are JSON on stdout). */
  exitCode: 0;
  /** The parsed event, when stdin parsed (for tests and logs). */
  event: HookEvent | null;
}

export interface RunHostHookOptions {
  /** The directory to fall back to when the payload has no `cwd`. */
  cwd: string;
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The state libraries; default: the real ones, loaded lazily. */
  services?: HookServices;
}

function note(host: HostName, message: string): string {
  return safeText(`agent-state hook ${host}: ${message}; the session continues\n`);
}

// The one error mapper's line (src/error-report.ts), as every other route says it.
function describe(error: unknown): string {
  if (error instanceof HookInputError) return error.message;
  return errorText(describeError(error));
}

/** Runs one hook call; never throws, always exit code 0. */
export async function runHostHook(
  host: HostName,
  input: string,
  options: RunHostHookOptions,
): Promise<HostHookResult> {
  let event: HookEvent | null = null;
  try {
    event = parseHookPayload(host, input, options.cwd);
    if (event.kind === 'other') return { stdout: '', stderr: '', exitCode: 0, event };
    let paths;
    try {
      paths = findRoot(event.cwd);
    } catch (error) {
      // Not every repository uses agent-state: stay silent there, say why only on stderr.
      if (error instanceof AgentStateError && error.code === 'NOT_INITIALIZED')
        return {
          stdout: '',
          stderr: note(host, 'no .agent/ here (run `agent-state init` to use it)'),
          exitCode: 0,
          event,
        };
      throw error;
    }
    const services =
      options.services ?? (await import('./hook-services.js')).hookServices(options.env);
    const { handleHookEvent } = await import('./handle-event.js');
    const outcome = await handleHookEvent(event, paths, services, options.env);
    const stderr = outcome.note ? note(host, outcome.note) : '';
    return { stdout: renderHookOutput(event, outcome), stderr, exitCode: 0, event };
  } catch (error) {
    const debug =
      (options.env ?? process.env).AGENT_STATE_DEBUG && error instanceof Error
        ? `${error.stack}\n`
        : '';
    return { stdout: '', stderr: note(host, describe(error)) + debug, exitCode: 0, event };
  }
}
