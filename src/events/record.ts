// recordEvent: how agent-state's own commands (init, plan, next, done, checkpoint, boot, evidence,
// ...) add their facts to the log. The command's real work is already done when it records, so a
// log that cannot be written must not fail it: the caller gets a warning to show instead.
import type { StatePaths } from '../state/paths.js';
import type { BaseOptions, Warning } from '../types.js';
import { appendEvent } from './append.js';
import type { AgentEvent, EventInput } from './types.js';

/** How long a command waits for the log lock before giving up on recording (the log is busy). */
const RECORD_TIMEOUT_MS = 2_000;

export interface RecordResult {
  /** The event as written, or null when it could not be. */
  event: AgentEvent | null;
  /** Why it could not be written, as a warning to print. */
  warning: Warning | null;
}

/**
 * Appends one fact to the task's event log; never throws. `actor` defaults to `system`
 * (agent-state itself). Returns the event, or a warning saying why it was not recorded.
 */
export async function recordEvent(
  paths: StatePaths,
  input: EventInput,
  options: BaseOptions = {},
): Promise<RecordResult> {
  try {
    const event = await appendEvent(
      { actor: 'system', ...input },
      { ...options, paths, timeoutMs: RECORD_TIMEOUT_MS },
    );
    return { event, warning: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      event: null,
      warning: {
        file: '.agent/log/events.jsonl',
        message: `could not record the ${input.type} event (${reason}); the command itself succeeded`,
      },
    };
  }
}
