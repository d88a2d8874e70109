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
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
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

// Message and hint per ajv keyword: {where} is the instance path, {found} what stands there, any
// other {name} the error's parameter of that name (`vars` below).
const TEXTS: Record<string, [string, string]> = {
  enum: ['{where} must be one of {allowedValues} (found {found})', 'use one of: {allowedValues}'],
  const: ['{where} must be {allowedValue} (found {found})', 'set {where} to {allowedValue}'],
  type: ['{where} must be {type} (found {found})', 'write {where} as {type}'],
  required: [
    '{where} is missing the required key "{missingProperty}"',
    'add "{missingProperty}" to {where}',
  ],
  pattern: ['{where} has an invalid format (found {found})', '{where} must match {pattern}'],
  format: ['{where} must be a {format} (found {found})', 'write a valid {format}'],
  minLength: ['{where} must not be empty', 'give {where} a value'],
  maxLength: [
    '{where} is longer than {limit} characters',
    'shorten it; keep long text in evidence',
  ],
  minimum: ['{where} {message} (found {found})', 'change {where} to a value in range'],
  propertyNames: [
    '{where} has an invalid key',
    'keys must be ids: letters, digits, dot, dash, underscore',
  ],
};
TEXTS.maximum = TEXTS.exclusiveMinimum = TEXTS.minimum!;
const OTHER: [string, string] = [
  '{where} {message}',
  'see docs/protocol.md for the expected shape',
];

// One message per error; an unknown key is pointed at itself, every other error at its value.
function explain(
  error: ErrorObject,
  data: unknown,
): { path: NodePath; key?: boolean; message: string; hint: string } {
  const path = parseInstancePath(error.instancePath);
  const where = formatPath(path);
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return {
      path: [...path, extra],
      key: true,
      message: path.length
        ? `unknown key "${extra}" in ${where}`
        : `unknown top-level key "${extra}"`,
      hint: `remove "${extra}" or check its spelling against docs/protocol.md`,
    };
  }
  const params = error.params as Record<string, unknown>;
  const vars: Record<string, string> = {
    ...(params as Record<string, string>),
    where,
    found: describe(valueAt(data, path)),
    message: error.message ?? (TEXTS[error.keyword] ? 'is out of range' : 'is invalid'),
    allowedValues: (params.allowedValues as unknown[] | undefined)?.map(String).join(', ') ?? '',
    allowedValue: JSON.stringify(params.allowedValue),
    type: typeName(params.type),
  };
  const fill = (text: string) =>
    text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name]));
  const [message, hint] = TEXTS[error.keyword] ?? OTHER;
  const dateTime = error.keyword === 'format' && params.format === 'date-time';
  return {
    path,
    message: fill(message),
    hint: dateTime ? 'use an ISO 8601 UTC time such as 2026-01-31T12:00:00Z' : fill(hint),
  };
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
    const { path, key, ...text } = explain(error, data);
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
