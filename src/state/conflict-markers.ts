// Unresolved merge conflicts in a state file (pure), the merge driver's or git's own markers: one
// located problem each, saying what conflicts, both sides' values and how to finish.
import type { Problem } from './yaml-doc.js';

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
