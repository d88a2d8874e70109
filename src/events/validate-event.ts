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

// One sentence per ajv error, naming the field as the producer wrote it.
function explain(error: ErrorObject, event: Record<string, unknown>): string | null {
  const field = error.instancePath.split('/').filter(Boolean).join('.');
  const value = field ? event[field.split('.')[0]!] : event;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `field "${String(params.missingProperty)}" is required`;
    case 'type':
      return `field "${field}" must be ${params.type === 'integer' ? 'a whole number' : params.type === 'boolean' ? 'true or false' : `a ${String(params.type)}`} (got ${describe(value)})`;
    case 'minimum':
      return `field "${field}" must be ${String(params.limit)} or more`;
    case 'enum':
      return `field "${field}" must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')} (got ${describe(value)})`;
    case 'pattern':
      if (field === 'type')
        return 'the event type must be dotted lower-case words, like tool.finished';
      if (field === 'at')
        return 'field "at" must be an ISO 8601 date-time, like 2026-01-31T12:00:00Z';
      return `field "${field}" has the wrong form`;
    case 'format':
      return `field "${field}" must be an ISO 8601 date-time, like 2026-01-31T12:00:00Z`;
    case 'maxLength':
      return `field "${field}" is longer than ${String(params.limit)} characters`;
    case 'minLength':
      return `field "${field}" is empty`;
    case 'additionalProperties':
      return `field "${field ? `${field}.` : ''}${String(params.additionalProperty)}" is not allowed`;
    case 'if':
    case 'allOf':
      return null; // the errors inside the branch say what is wrong
    default:
      return `field "${field}" ${error.message ?? 'is invalid'}`;
  }
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
