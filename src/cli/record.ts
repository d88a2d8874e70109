// How a command records its fact in the event log after its real work succeeded: never failing
// the command, at most a warning (printed on stderr by defineAction).
import { recordEvent } from '../events/record.js';
import type { EventInput } from '../events/types.js';
import { findRoot } from '../state/find-root.js';
import type { Warning } from '../types.js';

/**
 * Appends `input` to the log of the task at ctx.cwd, leaving out fields that are null or
 * undefined (an unknown value is absent, not a value); returns the warnings to show (if any).
 */
export async function recordFact(
  ctx: { cwd: string; now: () => Date; env: NodeJS.ProcessEnv },
  input: EventInput,
): Promise<Warning[]> {
  const fact = Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== null && v !== undefined),
  ) as EventInput;
  const { warning } = await recordEvent(findRoot(ctx.cwd), fact, { now: ctx.now, env: ctx.env });
  return warning ? [warning] : [];
}
