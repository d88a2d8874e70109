// Cline's Memory Bank (memory-bank/*.md): projectbrief.md gives the goal; activeContext.md the
// next action (its first "Next steps" item) and working memory (the items of its other
// sections); progress.md the plan, from its task lines: `- [x] ...` checkboxes and the status
// marks many banks use (✅ done, 🔄 or 🚧 in progress, ⬜ to do).
import type { PlanStatus } from '../types.js';
import { emptySource, type ImportSource, type Reader } from './import-source.js';
import {
  firstParagraph,
  firstSentence,
  listItems,
  plain,
  sections,
  sourceLines,
} from './markdown.js';

const MARKS: Record<string, PlanStatus> = {
  '✅': 'done',
  x: 'done',
  X: 'done',
  '🔄': 'running',
  '🚧': 'running',
  '⬜': 'pending',
  ' ': 'pending',
};
const TASK = /^\s*(?:[-*+]\s+)?(?:\[([ xX])\]|(✅|🔄|🚧|⬜))\uFE0F?\s+(.+)$/u;

/** Reads a memory bank (projectbrief.md, activeContext.md, progress.md) into an ImportSource. */
export function parseMemoryBank(read: Reader): ImportSource {
  const source = emptySource('memory-bank');
  const brief = sections(read('projectbrief.md')?.text ?? '').flatMap((s) => [
    { text: '', line: s.line },
    ...s.lines,
  ]);
  source.goal = firstSentence(firstParagraph(brief)) || undefined;
  for (const section of sections(read('activeContext.md')?.text ?? '')) {
    const items = listItems(section.lines).map((l) => l.text);
    if (/^next steps?$/i.test(section.heading)) source.nextAction ??= items[0];
    else if (section.level > 1)
      source.memory.working.push(...items.map((t) => `${section.heading}: ${t}`));
  }
  const seen = new Map<string, number>();
  for (const { text } of sourceLines(read('progress.md')?.text ?? '')) {
    const task = TASK.exec(text);
    if (!task) continue;
    const title = plain(task[3]!);
    const dashed = title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-');
    const slug = dashed.replace(/^-|-$/g, '').slice(0, 60) || 'item';
    const count = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, count);
    source.items.push({
      source: `memory-bank#${slug}${count > 1 ? `-${count}` : ''}`,
      title,
      status: MARKS[task[1] ?? task[2]!]!,
      needs: [],
    });
  }
  return source;
}
