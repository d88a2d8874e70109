// GSD's .planning/: PROJECT.md (or REQUIREMENTS.md) gives the goal, ROADMAP.md the phases and
// their plans, STATE.md where work stopped, the decisions and the blockers. Read the way
// gsd-tools reads them (`roadmap analyze`).
import type { PlanStatus } from '../types.js';
import {
  emptySource,
  refuser,
  type ImportItem,
  type ImportSource,
  type Reader,
} from './import-source.js';
import {
  findSection,
  firstParagraph,
  firstSentence,
  listItems,
  plain,
  sections,
  sourceLines,
} from './markdown.js';

const PHASE = /^#{2,4}\s*Phase\s+(\d+[A-Z]?(?:\.\d+)*)\s*:\s*(.+)$/i;
const PLAN =
  /^\s*[-*]\s*\[([ xX])\]\s*(?:\*\*)?(\d+[A-Z]?(?:\.\d+)*-\d+)(?:-PLAN\.md)?(?:\*\*)?\s*[:—–-]?\s*(.*)$/;

// A phase is done when its box in the phase list is checked; else its progress table row says.
function phaseStatus(roadmap: string, n: string): PlanStatus {
  const num = n.replace(/\./g, '\\.');
  if (new RegExp(`^\\s*-\\s*\\[[xX]\\].*Phase\\s+${num}[:\\s]`, 'im').test(roadmap)) return 'done';
  const cells =
    new RegExp(`^\\|\\s*${num}\\.?\\s[^|]*\\|.*$`, 'm').exec(roadmap)?.[0].split('|') ?? [];
  const status = cells[cells.length - 3] ?? '';
  const words = { complete: 'done', progress: 'running', deferred: 'blocked' } as const;
  const word = Object.keys(words).find((w) => new RegExp(w, 'i').test(status));
  return word ? words[word as keyof typeof words] : 'pending';
}

function goal(read: Reader): string | undefined {
  const project = sections(read('PROJECT.md')?.text ?? '');
  const core = firstParagraph(findSection(project, /^core value$/i)?.lines ?? []);
  const what = firstSentence(firstParagraph(findSection(project, /^what this is$/i)?.lines ?? []));
  const line = /^\*\*Core Value:\*\*\s*(.+)$/im.exec(read('REQUIREMENTS.md')?.text ?? '')?.[1];
  return core || (line && plain(line)) || what || undefined;
}

/** Reads a .planning/ folder (ROADMAP.md, PROJECT.md, REQUIREMENTS.md, STATE.md) into an ImportSource. */
export function parseGsd(read: Reader): ImportSource {
  const source = emptySource('gsd');
  source.goal = goal(read);
  const roadmap = read('ROADMAP.md')!;
  const phases: ImportItem[] = [];
  let phase: { item: ImportItem; level: number } | undefined;
  for (const { text } of sourceLines(roadmap.text)) {
    const heading = PHASE.exec(text);
    const level = /^#+/.exec(text)?.[0].length;
    if (heading) {
      const [, n, name] = heading as unknown as [string, string, string];
      const title = `Phase ${n}: ${plain(name.replace(/\(INSERTED\)/i, ''))}`;
      phase = {
        level: level!,
        item: { source: `gsd#phase-${n}`, title, status: phaseStatus(roadmap.text, n), needs: [] },
      };
      phases.push(phase.item);
      source.items.push(phase.item);
    } else if (level !== undefined && phase && level <= phase.level) phase = undefined;
    else if (phase) {
      const goalLine = /^\*\*Goal(?::\*\*|\*\*:)\s*(.+)$/i.exec(text);
      if (goalLine) phase.item.title += ` — ${plain(goalLine[1]!)}`;
      const depends = /^\*\*Depends on(?::\*\*|\*\*:)\s*(.+)$/i.exec(text)?.[1] ?? '';
      for (const m of depends.matchAll(/Phase\s+(\d+[A-Z]?(?:\.\d+)*)/gi))
        phase.item.needs.push(`gsd#phase-${m[1]}`);
      const plan = PLAN.exec(text);
      if (plan) {
        const [id, title] = [`gsd#${plan[2]}`, plain(plan[3]!) || plan[2]!];
        const status = plan[1] === ' ' ? 'pending' : 'done';
        source.items.push({ source: id, title, status, needs: [] });
        phase.item.needs.push(id);
      }
    }
  }
  if (phases.length === 0)
    refuser(roadmap.display, 'let GSD write the roadmap (/gsd:new-project), then import again')(
      1,
      'expected phases in ROADMAP.md: headings like `### Phase 1: Name`',
    );
  // A phase needs its plans and the phases it depends on; its plans need those phases too.
  for (const item of phases) {
    const before = item.needs.filter((n) => n.startsWith('gsd#phase-'));
    for (const plan of source.items.filter(
      (i) => !i.source.startsWith('gsd#phase-') && item.needs.includes(i.source),
    ))
      plan.needs.push(...before);
  }
  const state = read('STATE.md')?.text;
  if (state) {
    const stopped = /^Stopped at:\s*(.+)$/im.exec(state)?.[1]?.trim();
    if (stopped && !/^none$/i.test(stopped)) source.nextAction = plain(stopped);
    const all = sections(state);
    const items = (heading: RegExp) =>
      listItems(findSection(all, heading)?.lines ?? []).map((l) => l.text);
    source.memory.durable.push(...items(/^decisions$/i));
    source.memory.working.push(...items(/^blockers/i), ...items(/^pending todos$/i));
  }
  return source;
}
