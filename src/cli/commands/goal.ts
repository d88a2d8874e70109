// `agent-state goal [TEXT]`: show or set the goal anchor.
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';
import { findRoot } from '../../state/find-root.js';
import { readGoals, setGoal } from '../../state/store.js';
import { recordFact } from '../record.js';

export function registerGoal(program: AgentCommand): void {
  program
    .command('goal')
    .argument('[text]', 'the new anchor: one short sentence (omit to show the current one)')
    .description('show or set the goal anchor (rewrites only that paragraph of goals.md)')
    .helpAfter(
      '\nExamples:\n  $ agent-state goal\n  $ agent-state goal "Add OAuth login without changing the session store"',
    )
    .run(async (ctx, [text]) => {
      if (text === undefined) {
        const { goals, warnings } = readGoals(findRoot(ctx.cwd));
        return {
          text: goals.anchor || '(no goal anchor set)',
          json: { anchor: goals.anchor, changed: false, warnings },
          warnings,
        };
      }
      if (text.trim() === '')
        throw new UsageError('the goal is empty', {
          hint: 'write the goal as one sentence: agent-state goal "Make X do Y"',
        });
      const { changed, goals, warnings } = await setGoal(text, ctx);
      const recorded = changed
        ? await recordFact(ctx, { type: 'task.updated', goal: goals.anchor })
        : [];
      return {
        text: `${changed ? 'Goal set' : 'Goal unchanged'}: ${goals.anchor}`,
        json: { anchor: goals.anchor, changed, warnings },
        warnings: [...warnings.filter((w) => /anchor/.test(w.message)), ...recorded],
      };
    });
}
