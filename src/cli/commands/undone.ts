// `agent-state undone ID`: withdraw a completion marker.
import type { Command } from 'commander';
import { defineAction, type RunState } from '../action.js';

export function registerUndone(program: Command, state: RunState): void {
  program
    .command('undone')
    .argument('<id>', 'the plan item whose marker to remove')
    .description('remove a completion marker (a done plan item goes back to pending)')
    .option('--force', "change it although another agent's live claim holds it")
    .addHelpText('after', '\nExample:\n  $ agent-state undone t1')
    .action(
      defineAction<{ force?: boolean }>(state, async (ctx, [id], flags) => {
        const { markUndone } = await import('../../markers/mark-done.js');
        const result = await markUndone(id!, { cwd: ctx.cwd, env: ctx.env, force: flags.force });
        const item = result.item ? ` (${result.item.id} is ${result.item.status})` : '';
        return {
          text: result.removed
            ? `Removed the marker of ${result.id}${item}`
            : `${result.id} had no marker${item}`,
          json: result,
        };
      }),
    );
}
