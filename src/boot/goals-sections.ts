// The goal layer as prompt sections: the anchor, Forbidden and Constraints verbatim (never cut),
// then success criteria, non-goals and any other goals.md section (cut last to first).
import type { Goals } from '../types.js';
import { RANK, bullet, chunkMarkdown, keep, type Block, section, type Section } from './model.js';
import type { BootLevel, BootRole } from './types.js';

const GOALS_FILE = 'cat .agent/state/goals.md';

/** The sections that are never cut: goal anchor, Forbidden, Constraints. */
export function boundarySections(goals: Goals): Section[] {
  const sections: Section[] = [
    section('goal', 'Goal', 'goals', [
      keep(
        goals.anchor ||
          '(no goal anchor is set: ask the user for the goal, then run `agent-state goal "..."`)',
      ),
    ]),
  ];
  if (goals.forbidden.length > 0) {
    sections.push(
      section(
        'forbidden',
        'Forbidden (never touch)',
        'goals',
        goals.forbidden.map((entry) => keep(bullet(entry.text))),
      ),
    );
  }
  if (goals.constraints.length > 0) {
    sections.push(
      section(
        'constraints',
        'Constraints',
        'goals',
        goals.constraints.map((text) => keep(bullet(text))),
      ),
    );
  }
  return sections;
}

function listSection(
  key: string,
  title: string,
  items: readonly string[],
  rank: number,
  kind: 'success_criteria' | 'non_goals',
): Section | null {
  if (items.length === 0) return null;
  return {
    key,
    title,
    layer: 'goals',
    // The last items go first: authors put the most important ones at the top.
    blocks: items.map((text, i): Block => ({
      text: bullet(text),
      rank,
      order: items.length - i,
      omission: { kind, how: GOALS_FILE },
    })),
  };
}

/** Success criteria, non-goals and the other goals.md sections (level 2 and up). */
export function goalDetailSections(goals: Goals, level: BootLevel, role: BootRole): Section[] {
  if (level < 2) return [];
  // A reviewer judges against the success criteria; a planner must respect the non-goals.
  const criteriaRank = role === 'review' ? RANK.planItems + 2 : RANK.successCriteria;
  const nonGoalsRank = role === 'planning' ? RANK.planItems - 1 : RANK.nonGoals;
  const sections = [
    listSection(
      'success-criteria',
      'Success criteria',
      goals.successCriteria,
      criteriaRank,
      'success_criteria',
    ),
    listSection('non-goals', 'Non-goals (out of scope)', goals.nonGoals, nonGoalsRank, 'non_goals'),
  ].filter((s): s is Section => s !== null);
  goals.extraSections.forEach((extra, index) => {
    const chunks = chunkMarkdown(extra.body);
    if (chunks.length === 0) return;
    sections.push({
      key: 'goals-section',
      // Named as goals.md's: a `## Next action` there is not the tool's next action.
      title: `goals.md: ${extra.heading}`,
      layer: 'goals',
      xmlAttrs: { title: extra.heading },
      blocks: chunks.map((chunk, i) => ({
        text: chunk.text,
        sep: chunk.sep,
        rank: RANK.goalsExtra,
        // Later sections first, and within one the last chunk first.
        order: -index * 10_000 + (chunks.length - i),
        omission: { kind: 'goals_section', id: extra.heading, how: GOALS_FILE },
      })),
    });
  });
  return sections;
}
