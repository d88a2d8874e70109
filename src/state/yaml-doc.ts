// YAML documents with positions: parse errors and schema errors both point at file:line:col,
// and rewrites go through the Document API so comments and key order survive.
import type { Document } from 'yaml';
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Alias,
  type Node,
  type Pair,
} from 'yaml';
import type { SourceLocation } from '../errors.js';

/** One thing wrong with a state file, located. */
export interface Problem {
  location: SourceLocation;
  message: string;
  hint: string;
}

/** A parsed YAML document with the line counter that locates its nodes. */
export interface LocatedDocument {
  doc: Document;
  lineCounter: LineCounter;
  display: string;
}

const SYNTAX_HINTS: Record<string, string> = {
  TAB_AS_INDENT: 'indent with spaces, not tabs',
  DUPLICATE_KEY: 'remove or rename one of the duplicate keys',
  MULTIPLE_DOCS: 'keep a single YAML document: remove the `---` separator and what follows it',
  MISSING_CHAR: 'close the quote or bracket that was opened',
  BAD_INDENT: 'align the entries of each list and mapping at the same column',
};

// Aliases are refused: one to a missing anchor cannot be read; a few nested expand exponentially.
/** Parses YAML into its document and every syntax problem, located. */
export function parseYaml(
  text: string,
  display: string,
): LocatedDocument & { problems: Problem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: Problem[] = doc.errors.map((error) => {
    const pos = lineCounter.linePos(error.pos[0]);
    return {
      location: { file: display, line: pos.line, column: pos.col },
      message: `YAML syntax: ${error.message.split('\n')[0]}`,
      hint: SYNTAX_HINTS[error.code] ?? 'fix the YAML syntax at that position',
    };
  });
  const located = { doc, lineCounter, display };
  // An alias is always written with `*`: most files have none and skip the walk.
  if (problems.length === 0 && text.includes('*')) problems.push(...aliasProblems(located));
  return { ...located, problems };
}

// One problem for the first alias (an alias bomb has thousands), with the count of the others.
function aliasProblems(located: LocatedDocument): Problem[] {
  let first: Alias | undefined;
  let count = 0;
  visit(located.doc, {
    Alias(_, node) {
      first ??= node;
      count++;
    },
  });
  if (!first) return [];
  const pos = located.lineCounter.linePos(first.range?.[0] ?? 0);
  const others = count > 1 ? ` (and ${count - 1} more)` : '';
  return [
    {
      location: { file: located.display, line: pos.line, column: pos.col },
      message: `YAML alias \`*${first.source}\`${others}: agent-state files do not use anchors and aliases`,
      hint: `write the value out in full where \`*${first.source}\` stands, and remove its \`&${first.source}\` anchor`,
    },
  ];
}

/** A JSON-pointer-like path into a document: keys and indexes. */
export type NodePath = readonly (string | number)[];

/** Locates the node at `path` (or its nearest ancestor); `key`: the last segment's key itself. */
export function locate(located: LocatedDocument, path: NodePath, key = false): SourceLocation {
  let node: unknown = located.doc.contents;
  let best: Node | Pair | null = isNodeWithRange(node) ? node : null;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    let next: unknown = undefined;
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isScalar(p.key) && String(p.key.value) === String(segment),
      );
      if (pair) next = key && i === path.length - 1 ? pair.key : (pair.value ?? pair.key);
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    }
    if (next === undefined || next === null) break;
    node = next;
    if (isNodeWithRange(node)) best = node;
  }
  const offset = best && 'range' in best && best.range ? best.range[0] : 0;
  const pos = located.lineCounter.linePos(offset);
  return { file: located.display, line: pos.line, column: pos.col };
}

function isNodeWithRange(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value && !isPair(value);
}

/** Renders a path for messages: `plan[1].status`. */
export function formatPath(path: NodePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text === '' ? '(top level)' : text;
}

/** Parses an ajv instance path (`/plan/1/status`) into segments, numbers for indexes. */
export function parseInstancePath(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

/** Stringify options that reproduce how a file was written (for rewrites that keep its look). */
export interface YamlStyle {
  indent: number;
  indentSeq: boolean;
  flowCollectionPadding: boolean;
  lineWidth: 0;
}

/** Detects indentation width, whether lists are indented under their key, and `[ a ]` padding. */
export function detectYamlStyle(text: string): YamlStyle {
  const nested = /^([ \t]*)[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\n\1( +)[^\s-]/m.exec(text);
  const indent = nested ? Math.min(Math.max(nested[2]!.length, 2), 8) : 2;
  const flatSeq = /^([ \t]*)[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\n\1- /m.test(text);
  const padded = /[[{] \S[^\n]* [\]}]/.test(text);
  return { indent, indentSeq: !flatSeq, flowCollectionPadding: padded, lineWidth: 0 };
}
