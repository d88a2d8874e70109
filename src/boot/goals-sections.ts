// The goal layer as prompt sections: the anchor, Forbidden and Constraints verbatim (never cut),
// then success criteria, non-goals and any other goals.md section (cut last to first).
import type { Goals } from '../types.js';
import { RANK, bullet, chunkMarkdown, section, type Section } from './model.js';
import type { BootLevel, BootRole } from './types.js';

const GOALS_FILE = 'cat .agent/state/goals.md';

/** The sections that are never cut: goal anchor, Forbidden, Constraints. */
export function boundarySections(goals: Goals): Section[] {
  const anchor =
    goals.anchor ||
    '(no goal anchor is set: ask the user for the goal, then run `agent-state goal "..."`)';
  const sections = [section('goal', 'Goal', 'goals', [anchor])];
  const forbidden = goals.forbidden.map((entry) => bullet(entry.text));
  if (forbidden.length)
    sections.push(section('forbidden', 'Forbidden (never touch)', 'goals', forbidden));
  const constraints = goals.constraints.map((text) => bullet(text));
  if (constraints.length)
    sections.push(section('constraints', 'Constraints', 'goals', constraints));
  return sections;
}

// A goals.md list, keyed by its omission kind (`success-criteria` for `success_criteria`).
function listSection(
  kind: 'success_criteria' | 'non_goals',
  title: string,
  items: readonly string[],
  rank: number,
) {
  if (items.length === 0) return null;
  // The last items go first: authors put the most important ones at the top.
  return section(
    kind.replace('_', '-'),
    title,
    'goals',
    items.map((text, i) => ({
      text: bullet(text),
      rank,
      order: items.length - i,
      omission: { kind, how: GOALS_FILE },
    })),
  );
}

/** Success criteria, non-goals and the other goals.md sections (level 2 and up). */
export function goalDetailSections(goals: Goals, level: BootLevel, role: BootRole): Section[] {
  if (level < 2) return [];
  // A reviewer judges against the success criteria; a planner must respect the non-goals.
  const criteriaRank = role === 'review' ? RANK.planItems + 2 : RANK.successCriteria;
  const nonGoalsRank = role === 'planning' ? RANK.planItems - 1 : RANK.nonGoals;
  const sections = [
    listSection('success_criteria', 'Success criteria', goals.successCriteria, criteriaRank),
    listSection('non_goals', 'Non-goals (out of scope)', goals.nonGoals, nonGoalsRank),
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
