// The shared path of every YAML state file: syntax → "is a mapping" → protocol version → schema.
import { upgradeHint } from '../package-root.js';
import { conflictProblems } from './conflict-markers.js';
import { schemaProblems } from './schema-problems.js';
import { validateAgainst, type SchemaName } from './validators.js';
import { locate, parseYaml, type LocatedDocument, type Problem } from './yaml-doc.js';

/** The newest protocol version this build knows. */
export const PROTOCOL_VERSION = 1;

export interface YamlStateSpec {
  schema: SchemaName;
  /** What the mapping holds, for the "must be a mapping" message. */
  what: string;
  /** How to get a good file back. */
  restoreHint: string;
  /** Whether an empty document is valid (config: all defaults). */
  allowEmpty?: boolean;
}

export interface YamlState {
  data: unknown;
  located: LocatedDocument;
  problems: Problem[];
}

/** Parses YAML state text and checks it against its schema; never throws for bad content. */
export function parseYamlState(text: string, display: string, spec: YamlStateSpec): YamlState {
  const located = parseYaml(text, display);
  // A merge left conflict markers: say what conflicts, not what YAML makes of the markers.
  const conflicts = conflictProblems(text, display);
  if (conflicts.length > 0) return { data: undefined, located, problems: conflicts };
  if (located.problems.length > 0) return { data: undefined, located, problems: located.problems };
  const data: unknown = located.doc.toJS();
  if ((data === null || data === undefined) && spec.allowEmpty)
    return { data: {}, located, problems: [] };
  return { data, located, problems: checkYamlState(data, located, spec) };
}

/** The checks of parseYamlState on an already parsed value (used again before every write). */
export function checkYamlState(
  data: unknown,
  located: LocatedDocument,
  spec: YamlStateSpec,
): Problem[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return [
      {
        location: locate(located, []),
        message: `the file must be a YAML mapping of ${spec.what}`,
        hint: spec.restoreHint,
      },
    ];
  }
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > PROTOCOL_VERSION) {
    return [
      {
        location: locate(located, ['version']),
        message: `the file uses protocol version ${version}, newer than this agent-state knows (${PROTOCOL_VERSION})`,
        hint: `upgrade agent-state: ${upgradeHint()}`,
      },
    ];
  }
  return schemaProblems(validateAgainst(spec.schema, data), data, located);
}
