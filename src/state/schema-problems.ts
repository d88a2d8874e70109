// Turns ajv's errors into problems a person can act on: the file:line:col of the offending YAML
// node, what was expected, what was found, and how to fix it.
import type { ErrorObject } from 'ajv';
import {
  formatPath,
  locate,
  parseInstancePath,
  type LocatedDocument,
  type NodePath,
  type Problem,
} from './yaml-doc.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${JSON.stringify(truncate(value, 40))}`;
  return `${typeof value} ${String(value)}`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function valueAt(data: unknown, path: NodePath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function typeName(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ');
}

// One message per error; `path` (default: the instance path) is where to point, `key` whether to
// point at the key itself.
function explain(
  error: ErrorObject,
  data: unknown,
): { path?: NodePath; key?: boolean; message: string; hint: string } {
  const path = parseInstancePath(error.instancePath);
  const where = formatPath(path);
  const found = describe(valueAt(data, path));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      return {
        message: `${where} must be one of ${allowed} (found ${found})`,
        hint: `use one of: ${allowed}`,
      };
    }
    case 'const': {
      const value = JSON.stringify(params.allowedValue);
      return {
        message: `${where} must be ${value} (found ${found})`,
        hint: `set ${where} to ${value}`,
      };
    }
    case 'type': {
      const type = typeName(params.type);
      return {
        message: `${where} must be ${type} (found ${found})`,
        hint: `write ${where} as ${type}`,
      };
    }
    case 'required': {
      const missing = String(params.missingProperty);
      return {
        message: `${where} is missing the required key "${missing}"`,
        hint: `add "${missing}" to ${where}`,
      };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      return {
        path: [...path, extra],
        key: true,
        message: path.length
          ? `unknown key "${extra}" in ${where}`
          : `unknown top-level key "${extra}"`,
        hint: `remove "${extra}" or check its spelling against docs/protocol.md`,
      };
    }
    case 'pattern':
      return {
        message: `${where} has an invalid format (found ${found})`,
        hint: `${where} must match ${String(params.pattern)}`,
      };
    case 'format':
      return {
        message: `${where} must be a ${String(params.format)} (found ${found})`,
        hint:
          params.format === 'date-time'
            ? 'use an ISO 8601 UTC time such as 2026-01-31T12:00:00Z'
            : `write a valid ${String(params.format)}`,
      };
    case 'minLength':
      return { message: `${where} must not be empty`, hint: `give ${where} a value` };
    case 'maxLength':
      return {
        message: `${where} is longer than ${String(params.limit)} characters`,
        hint: 'shorten it; keep long text in evidence',
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
      return {
        message: `${where} ${error.message ?? 'is out of range'} (found ${found})`,
        hint: `change ${where} to a value in range`,
      };
    case 'propertyNames':
      return {
        message: `${where} has an invalid key`,
        hint: 'keys must be ids: letters, digits, dot, dash, underscore',
      };
    default:
      return {
        message: `${where} ${error.message ?? 'is invalid'}`,
        hint: 'see docs/protocol.md for the expected shape',
      };
  }
}

/** Converts ajv errors for `data` parsed from `located` into located problems, one per path. */
export function schemaProblems(
  errors: ErrorObject[],
  data: unknown,
  located: LocatedDocument,
): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  // `propertyNames` failures come with a child error naming the bad key; keep the clearer one.
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const { path = parseInstancePath(error.instancePath), key, ...text } = explain(error, data);
    const id = `${error.instancePath}|${error.keyword}|${text.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push({ location: locate(located, path, key), ...text });
  }
  return problems.sort(
    (a, b) =>
      (a.location.line ?? 0) - (b.location.line ?? 0) ||
      (a.location.column ?? 0) - (b.location.column ?? 0),
  );
}
