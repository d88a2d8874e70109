// `agent-state event TYPE ...` (lean: hooks call it after every tool call): append one fact to the
// log. `--json` followed by a JSON object is the event's fields; elsewhere it asks for JSON output.
import { EXIT } from '../../error-report.js';
import { UsageError } from '../../errors.js';
import { appendEvents } from '../../events/append.js';
import { KNOWN_EVENT_TYPES } from '../../events/reduce.js';
import { EVENT_ACTORS, type EventInput } from '../../events/types.js';
import { option, type LeanCommand, type ParsedArgs } from '../parse-args.js';
import { readStdin } from '../read-stdin.js';

/** `true`, `false`, numbers and `null` as such; anything else a string. */
export function coerceFieldValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function parseField(raw: string): [string, unknown] {
  const eq = raw.indexOf('=');
  if (eq <= 0)
    throw new UsageError(`--field needs key=value (got "${raw}")`, {
      hint: 'for example --field name=grep --field new_results=0',
    });
  return [raw.slice(0, eq), coerceFieldValue(raw.slice(eq + 1))];
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

/** The events a parsed `event` call asks for (not yet validated: the appender does that). */
export function eventInputs({ args, options }: ParsedArgs, readStdin: () => string): EventInput[] {
  const fields = Object.fromEntries(((options.field as string[]) ?? []).map(parseField));
  const payload =
    options.json === undefined
      ? {}
      : asObject(parseJson(options.json as string, '--json'), '--json');
  const sources = options.stdin === true ? stdinObjects(readStdin()) : [{}];
  return sources.map((source) => {
    const merged: Record<string, unknown> = { ...source, ...payload, ...fields };
    const type = args[0] ?? merged.type;
    if (typeof type !== 'string' || type === '')
      throw new UsageError('event needs a TYPE', {
        hint: 'for example: agent-state event tool.finished --field name=grep --field new_results=0',
      });
    return { ...merged, type, ...(options.actor ? { actor: options.actor } : {}) } as EventInput;
  });
}

export const eventCommand: LeanCommand = {
  spec: {
    name: 'event',
    description: 'append one event (a fact: a tool call, a cwd change, a test run) to the log',
    arguments: [
      {
        name: 'type',
        description: 'the event type (tool.finished, cwd.changed, ...; may come from the JSON)',
      },
    ],
    options: [
      option(
        '-f, --field <key=value>',
        'a field (repeatable); true/false/null and numbers are typed',
        { repeatable: true },
      ),
      option(
        '--stdin',
        'read the fields from stdin: a JSON object, or one per line (several events)',
      ),
      option(
        '--actor <actor>',
        'who caused it: user, agent, system or tool (default from the type)',
        { choices: EVENT_ACTORS },
      ),
      option('--json <object>', 'the fields as one JSON object', {
        valueWhen: /^\s*\{/,
        hidden: true,
      }),
    ],
    help: `
  --json JSON            the fields as one JSON object (after TYPE; a bare --json asks for JSON output)

Known types (others are kept and ignored by the status):
  ${KNOWN_EVENT_TYPES.filter((t) => t !== 'log.rotated').join(', ')}
Fields of each type: docs/status-bar.md. seq is assigned by the log; at defaults to now.

Examples:
  $ agent-state event tool.finished --field name=grep --field new_results=0
  $ agent-state event verification.finished --json '{"passed":41,"failed":1,"artifact":".agent/artifacts/test.log"}'
  $ agent-state event cwd.changed --field cwd=services/payment
  $ agent-state event budget.set --field tool_calls=40 --field tokens=200000
  $ cat events.jsonl | agent-state event --stdin`,
  },

  async run(parsed, { cwd, now, out, io }) {
    // --stdin reads even from a terminal: there a person types the events.
    const stdin = parsed.options.stdin === true ? await readStdin(io, true) : '';
    const inputs = eventInputs(parsed, () => stdin);
    const events = await appendEvents(inputs, { cwd, now });
    if (out.json) out.printJson({ events });
    else out.print(events.map((e) => `Recorded #${e.seq} ${e.type}`).join('\n'));
    return EXIT.OK;
  },
};
