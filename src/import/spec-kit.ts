// spec-kit's specs/<feature>/tasks.md: checkbox lines `- [ ] T001 [P] [US1] Description`. Tasks
// run in file order; consecutive [P] tasks form a group that runs in parallel, and a heading ends
// a group. Each task needs every task of the group before it, and the tasks its text names with
// "(depends on T012, T013)".
import { emptySource, refuser, type ImportSource, type TextFile } from './import-source.js';
import { plain, sourceLines } from './markdown.js';

const CHECKBOX = /^(\s*)[-*]\s+\[([ xX])\]\s+(.*)$/;

/** Reads a tasks.md into an ImportSource; `feature` (its folder's name) scopes the ids. */
export function parseSpecKit(file: TextFile, feature: string): ImportSource {
  const source = emptySource('spec-kit');
  const bad = refuser(file.display, 'write each task as `- [ ] T001 [P] [US1] Description`');
  const key = (id: string) => `spec-kit#${feature}/${id}`;
  const lines = new Map<string, number>();
  let before: string[] = [];
  let group: { ids: string[]; parallel: boolean } | null = null;
  for (const { text, line } of sourceLines(file.text)) {
    if (/^#{1,6}\s/.test(text) && group) [before, group] = [group.ids, null];
    const box = CHECKBOX.exec(text);
    if (!box) continue;
    const task = /^(T\d+[a-z]?)\b\s*(.*)$/.exec(box[3]!);
    if (!task) {
      if (box[1] === '') bad(line, 'expected a task id like T001 after the checkbox');
      continue;
    }
    const id = task[1]!;
    if (lines.has(id)) bad(line, `${id} is used twice (lines ${lines.get(id)} and ${line})`);
    lines.set(id, line);
    const labels = /^((?:\[[^\]]*\]\s*)*)/.exec(task[2]!)![1]!;
    const parallel = /\[P\]/.test(labels);
    if (!(parallel && group?.parallel)) {
      if (group) before = group.ids;
      group = { ids: [], parallel };
    }
    group.ids.push(id);
    const named = /\(depends on ([^)]*)\)/i.exec(task[2]!)?.[1]?.match(/T\d+[a-z]?/g) ?? [];
    source.items.push({
      source: key(id),
      title: plain(task[2]!.replace(/\[P\]\s*/, '')) || id,
      status: box[2] === ' ' ? 'pending' : 'done',
      needs: [...new Set([...before, ...named])].map(key),
    });
  }
  if (source.items.length === 0) bad(1, 'expected task lines like `- [ ] T001 Description`');
  return source;
}
