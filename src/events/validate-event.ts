// Turning a producer's input into a valid event (defaults filled, fields ordered) or a UsageError
// that says which field is wrong and what it must be.
import type { ErrorObject } from 'ajv';
import { UsageError } from '../errors.js';
import { redactValue } from '../text/redact.js';
import { validateAgainst } from '../state/validators.js';
import type { AgentEvent, EventActor, EventInput } from './types.js';

const COMMON_FIELDS = ['seq', 'at', 'type', 'actor', 'id', 'causation_id', 'correlation_id'];

/** Who a fact comes from when the producer does not say: tools, the user, or the agent. */
export function defaultActor(type: string): EventActor {
  if (type.startsWith('tool.')) return 'tool';
  if (type.startsWith('user.') || type === 'permission.granted' || type === 'permission.denied')
    return 'user';
  if (type.startsWith('log.')) return 'system';
  return 'agent';
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : String(value);
}

const DATE_TIME = 'an ISO 8601 date-time, like 2026-01-31T12:00:00Z';
const TYPE_WORDS: Record<string, string> = { integer: 'a whole number', boolean: 'true or false' };

const PATTERN_WORDS: Record<string, string> = {
  type: 'the event type must be dotted lower-case words, like tool.finished',
  at: `field "at" must be ${DATE_TIME}`,
};

type Explainer = (field: string, params: Record<string, unknown>, got: string) => string | null;

// One sentence per ajv keyword; null for `if`/`allOf`: the errors inside the branch say what is wrong.
const EXPLAIN: Record<string, Explainer> = {
  required: (_, p) => `field "${String(p.missingProperty)}" is required`,
  type: (f, p, got) =>
    `field "${f}" must be ${TYPE_WORDS[String(p.type)] ?? `a ${String(p.type)}`} (got ${got})`,
  minimum: (f, p) => `field "${f}" must be ${String(p.limit)} or more`,
  enum: (f, p, got) =>
    `field "${f}" must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')} (got ${got})`,
  pattern: (f) => PATTERN_WORDS[f] ?? `field "${f}" has the wrong form`,
  format: (f) => `field "${f}" must be ${DATE_TIME}`,
  maxLength: (f, p) => `field "${f}" is longer than ${String(p.limit)} characters`,
  minLength: (f) => `field "${f}" is empty`,
  additionalProperties: (f, p) =>
    `field "${f ? `${f}.` : ''}${String(p.additionalProperty)}" is not allowed`,
  if: () => null,
  allOf: () => null,
};

// One sentence per ajv error, naming the field as the producer wrote it.
function explain(error: ErrorObject, event: Record<string, unknown>): string | null {
  const field = error.instancePath.split('/').filter(Boolean).join('.');
  const got = describe(field ? event[field.split('.')[0]!] : event);
  const explainer: Explainer =
    EXPLAIN[error.keyword] ?? ((f) => `field "${f}" ${error.message ?? 'is invalid'}`);
  return explainer(field, error.params as Record<string, unknown>, got);
}

/** Every problem of an event, in words (empty when it is valid). */
export function eventProblems(event: Record<string, unknown>): string[] {
  const problems = validateAgainst('event', event)
    .map((error) => explain(error, event))
    .filter((p): p is string => p !== null);
  if (event.type === 'budget.set' && event.tool_calls === undefined && event.tokens === undefined)
    problems.push('budget.set needs tool_calls, tokens or both');
  return [...new Set(problems)];
}

/**
 * Fills in `at` and `actor`, orders the fields (common ones first), redacts secrets from every
 * string (a tool's command line, a next action) and validates; the `seq` is left for the
 * appender. Throws UsageError naming the first wrong field.
 */
export function prepareEvent(input: EventInput, now: Date): Omit<AgentEvent, 'seq'> {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new UsageError('an event must be a JSON object', {
      hint: 'pass fields as --field key=value or a JSON object',
    });
  if ('seq' in input)
    throw new UsageError('an event may not set "seq": the log assigns it', {
      hint: 'remove the seq field',
    });
  const type = typeof input.type === 'string' ? input.type : '';
  const ordered: Record<string, unknown> = {
    at: input.at ?? now.toISOString(),
    type: input.type,
    actor: input.actor ?? defaultActor(type),
  };
  for (const key of COMMON_FIELDS) if (input[key] !== undefined) ordered[key] ??= input[key];
  for (const [key, value] of Object.entries(input))
    if (!COMMON_FIELDS.includes(key) && value !== undefined) ordered[key] = value;
  const problems = eventProblems({ seq: 1, ...ordered });
  if (problems.length > 0) {
    throw new UsageError(`invalid ${type || 'event'} event: ${problems.join('; ')}`, {
      hint: 'see docs/status-bar.md for the fields of each event type',
      details: problems,
    });
  }
  return redactValue(ordered) as Omit<AgentEvent, 'seq'>;
}
