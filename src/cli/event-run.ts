// `event`: turning the parsed arguments (and stdin) into events and appending them. Shared by the
// fast path (event-cli.ts) and the commander command (commands/event.ts).
import { UsageError } from '../errors.js';
import { appendEvents } from '../events/append.js';
import type { AgentEvent, EventInput } from '../events/types.js';
import type { EventArgs } from './event-args.js';

export interface EventIo {
  cwd: string;
  now: () => Date;
  readStdin: () => string;
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${where} is not a JSON object`, {
      hint: 'give the fields as an object, like {"name":"grep","new_results":0}',
    });
  return value as Record<string, unknown>;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not valid JSON: ${(error as Error).message}`, {
      hint: 'quote the whole object for the shell: --json \'{"name":"grep"}\'',
    });
  }
}

// stdin holds one JSON object, an array of them, or one object per line (JSON Lines).
function stdinObjects(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (trimmed === '')
    throw new UsageError('--stdin was given but stdin is empty', {
      hint: 'pipe a JSON object (or one per line) into the command',
    });
  try {
    const whole = JSON.parse(trimmed) as unknown;
    if (Array.isArray(whole)) return whole.map((v, i) => asObject(v, `stdin item ${i + 1}`));
    return [asObject(whole, 'stdin')];
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
  return trimmed
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, n }) => asObject(parseJson(line, `stdin:${n}`), `stdin:${n}`));
}

/** The events an `event` invocation asks for (not yet validated: the appender does that). */
export function eventInputs(args: EventArgs, readStdin: () => string): EventInput[] {
  const payload =
    args.payload === undefined ? {} : asObject(parseJson(args.payload, '--json'), '--json');
  const sources = args.stdin ? stdinObjects(readStdin()) : [{}];
  return sources.map((source) => {
    const merged: Record<string, unknown> = { ...source, ...payload, ...args.fields };
    const type = args.type ?? merged.type;
    if (typeof type !== 'string' || type === '')
      throw new UsageError('event needs a TYPE', {
        hint: 'for example: agent-state event tool.finished --field name=grep --field new_results=0',
      });
    return {
      ...merged,
      type,
      ...(args.actor ? { actor: args.actor } : {}),
    } as EventInput;
  });
}

/** Appends the events of one invocation; returns them as written. */
export async function runEvent(args: EventArgs, io: EventIo): Promise<AgentEvent[]> {
  const inputs = eventInputs(args, io.readStdin);
  return appendEvents(inputs, { cwd: io.cwd, now: io.now });
}

/** One line per recorded event, for humans. */
export function describeRecorded(events: readonly AgentEvent[]): string {
  return events.map((e) => `Recorded #${e.seq} ${e.type}`).join('\n');
}
