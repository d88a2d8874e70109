// The merge of three texts of a progress file (pure): values merged by id (merge-progress.ts) are
// written into our side's document, keeping its comments, key order and style, and each conflict
// is marked in place with git's conflict markers and both sides' values.
import { isMap, isScalar, isSeq, stringify, type Document, type Node } from 'yaml';
import { syncDocument } from '../state/yaml-sync.js';
import { detectYamlStyle, parseYaml, type YamlStyle } from '../state/yaml-doc.js';
import {
  mergeProgress,
  type MergeConflict,
  type MergeDecision,
  type PathStep,
} from './merge-progress.js';

/** Git's default conflict-marker size. */
const MARKER = 7;

/** The merged text, and what could not be merged. */
export interface MergedText {
  text: string;
  conflicts: MergeConflict[];
  decisions: MergeDecision[];
}

// The sentinel that stands for a conflicted node until the text is rendered.
const sentinel = (n: number) => `AGENTSTATECONFLICT${n}X`;
const SENTINEL_LINE = /^(.*?)AGENTSTATECONFLICT(\d+)X[ \t]*$/;

// A side that does not parse, or holds an alias (every reader of the state refuses one), is merged
// by lines and left for the user.
function parsePlain(text: string): { doc: Document; value: Record<string, unknown> } | null {
  const { doc, problems } = parseYaml(text, '');
  if (problems.length > 0) return null;
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { doc, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  return { doc, value: value as Record<string, unknown> };
}

// The nodes of the plan items of a document, by id (donors for the merged document).
function planNodes(doc: Document): Map<string, Node> {
  const nodes = new Map<string, Node>();
  const plan = isMap(doc.contents) ? doc.contents.get('plan', true) : undefined;
  if (!isSeq(plan)) return nodes;
  for (const item of plan.items) {
    const id = isMap(item) ? item.get('id') : undefined;
    if (typeof id === 'string') nodes.set(id, item as Node);
  }
  return nodes;
}

// Replaces the node at `path` by a sentinel scalar; collections on the way become block style so
// that the sentinel stands on a line of its own.
function placeSentinel(doc: Document, path: readonly PathStep[], n: number): boolean {
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node) && typeof step === 'string') {
      node.flow = false;
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === step);
      if (!pair) return false;
      if (last) pair.value = doc.createNode(sentinel(n));
      else node = pair.value;
    } else if (isSeq(node) && typeof step === 'object') {
      node.flow = false;
      const index = node.items.findIndex((item) => isMap(item) && item.get('id') === step.id);
      if (index === -1) return false;
      if (last) node.items[index] = doc.createNode(sentinel(n));
      else node = node.items[index];
    } else return false;
  }
  return true;
}

// One side's value as the lines that replace the sentinel line `<prefix><sentinel>`: the prefix
// is what stood before the value (`    status: `, `  - `); an absent value is no line at all.
function sideLines(prefix: string, last: PathStep, value: unknown, style: YamlStyle): string[] {
  if (value === undefined) return [];
  const tail = typeof last === 'string' ? `${last}: ` : '- ';
  const head = prefix.endsWith(tail) ? prefix.slice(0, -tail.length) : /^\s*/.exec(prefix)![0];
  const wrapped = typeof last === 'string' ? { [last]: value } : [value];
  const lines = stringify(wrapped, style).replace(/\n$/, '').split('\n');
  return lines.map((line, i) => `${i === 0 ? head : ' '.repeat(head.length)}${line}`.trimEnd());
}

/** A short rendering of a value for messages: `done`, `(absent)`, `{ agent: bob, ... }`. */
export function describeValue(value: unknown, max = 80): string {
  if (value === undefined) return '(absent)';
  const text =
    typeof value === 'string' ? value : JSON.stringify(value).replace(/"([^"]+)":/g, '$1: ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Merges three texts of a progress file; null when one of them is not a YAML mapping (the
 * caller then falls back to a line merge). `base` is '' when the file is new on both sides.
 */
export function mergeYamlText(base: string, ours: string, theirs: string): MergedText | null {
  const [b, o, t] = [parsePlain(base), parsePlain(ours), parsePlain(theirs)];
  if (!b || !o || !t) return null;
  const outcome = mergeProgress(b.value, o.value, t.value);
  const doc = o.doc;
  syncDocument(doc, outcome.value, planNodes(t.doc));
  const style = detectYamlStyle(ours);
  const placed = outcome.conflicts.map((c, n) => placeSentinel(doc, c.path, n));
  const lines = doc.toString(style).split('\n');
  const marked = lines.flatMap((line) => {
    const match = SENTINEL_LINE.exec(line);
    const n = Number(match?.[2]);
    const conflict = match && placed[n] ? outcome.conflicts[n] : undefined;
    if (!conflict) return [line];
    const last = conflict.path[conflict.path.length - 1]!;
    const label = `agent-state: ${conflict.what}`;
    return [
      `${'<'.repeat(MARKER)} ours (${label})`,
      ...sideLines(match![1]!, last, conflict.ours, style),
      '='.repeat(MARKER),
      ...sideLines(match![1]!, last, conflict.theirs, style),
      `${'>'.repeat(MARKER)} theirs (${label})`,
    ];
  });
  return { text: marked.join('\n'), conflicts: outcome.conflicts, decisions: outcome.decisions };
}
