// The shared path of every YAML state file: syntax → "is a mapping" → protocol version → schema.
import { upgradeHint } from '../package-root.js';
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

// Unresolved merge conflicts (pure), the merge driver's markers (`<<<<<<< ours (agent-state: plan
// item t7 status)`) or git's own: one located problem each, what conflicts, both sides, the fix.
const BEGIN = /^<{7}(?: (.*))?$/;
const BASE = /^\|{7}(?: .*)?$/;
const SPLIT = /^={7}$/;
const END = /^>{7}(?: (.*))?$/;

// What the driver's label names: `ours (agent-state: plan item t7 status)` → `plan item t7 status`.
function subject(label: string | undefined): string | null {
  const match = /\(agent-state: (.+)\)\s*$/.exec(label ?? '');
  return match ? match[1]! : null;
}

function summary(lines: readonly string[]): string {
  if (lines.length === 0) return '(absent)';
  const text = lines
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** One problem per conflict block in `text`; none when there is no conflict marker. */
export function conflictProblems(text: string, display: string): Problem[] {
  if (!text.includes('<<<<<<<')) return [];
  const lines = text.split(/\r?\n/);
  const problems: Problem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const begin = BEGIN.exec(lines[i]!);
    if (!begin) continue;
    const ours: string[] = [];
    const theirs: string[] = [];
    let side: 'ours' | 'base' | 'theirs' = 'ours';
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (END.test(line)) break;
      if (BASE.test(line)) side = 'base';
      else if (SPLIT.test(line)) side = 'theirs';
      else if (side === 'ours') ours.push(line);
      else if (side === 'theirs') theirs.push(line);
    }
    const what = subject(begin[1]);
    const where = what ? `in ${what}` : `(lines ${i + 1}–${j + 1})`;
    problems.push({
      location: { file: display, line: i + 1, column: 1 },
      message: `unresolved merge conflict ${where}: ours ${summary(ours)}, theirs ${summary(theirs)}`,
      hint: `keep the lines of one side, delete the marker lines (<<<<<<<, =======, >>>>>>>), then \`agent-state validate\` and \`git add ${display}\``,
    });
    i = j;
  }
  return problems;
}
