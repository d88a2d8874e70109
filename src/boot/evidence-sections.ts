// The evidence layer: headlines (level 2 and up, newest first) and bodies (level 3). Bodies are cut
// first (oldest entry first, a body's end before its start), then the older headlines.
import { compareEntryIds, shortEntryId } from '../evidence/entry-id.js';
import {
  RANK,
  ago,
  bullet,
  chunkMarkdown,
  idList,
  type Block,
  section,
  type Section,
} from './model.js';
import type { BootEvidence, BootLevel } from './types.js';

const show = (id: string) => `agent-state evidence show ${id}`;

/** An evidence entry's headline: short id, kind, age, summary. */
export function headline(entry: BootEvidence, now: Date): string {
  return `${shortEntryId(entry.id)} ${entry.kind}, ${ago(entry.at, now)}: ${entry.summary}`;
}

/** Evidence headlines and, at level 3, bodies. */
export function evidenceSections(
  evidence: readonly BootEvidence[],
  level: BootLevel,
  now: Date,
): Section[] {
  if (level < 2 || evidence.length === 0) return [];
  // Newest first, by id (a unique id starts with its time; 0.1.0's sequence ids come first).
  const entries = [...evidence].sort((a, b) => compareEntryIds(b.id, a.id));
  const sections: Section[] = [
    section(
      'evidence',
      'Evidence (newest first)',
      'evidence',
      entries.map((entry, i): Block => ({
        text: bullet(headline(entry, now)),
        rank: i === 0 ? RANK.newestEvidence : RANK.olderEvidence,
        order: entries.length - i,
        omission: { kind: 'evidence_headline', id: entry.id, how: show('ID') },
      })),
    ),
  ];
  if (level < 3) return sections;
  const blocks = entries.flatMap((entry, e) => {
    const chunks = chunkMarkdown(entry.body);
    return chunks.map((chunk, i): Block => ({
      // The entry's title rides on its first chunk, so it goes when the whole body goes.
      text: i === 0 ? `### ${headline(entry, now)}\n\n${chunk.text}` : chunk.text,
      sep: i === 0 ? '\n\n' : chunk.sep,
      head: i === 0,
      rank: RANK.evidenceBody,
      order: (entries.length - e) * 10_000 + (i === 0 ? 9_999 : chunks.length - i),
      omission: { kind: 'evidence_body', id: entry.id, how: show('ID') },
    }));
  });
  if (blocks.length === 0) return sections;
  sections.push(
    section('evidence-bodies', 'Evidence details', 'evidence', blocks, {
      summarize(cut) {
        const ids = [...new Set(cut.map((b) => b.omission!.id!))]
          .sort((a, b) => compareEntryIds(b, a))
          .map(shortEntryId);
        return ids.length
          ? `[cut for the budget: the rest of ${idList(ids)} — \`${show('ID')}\`]`
          : null;
      },
    }),
  );
  return sections;
}
