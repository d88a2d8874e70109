// `agent-state undone ID`: withdraw a completion marker.
import type { AgentCommand } from '../agent-command.js';

export function registerUndone(program: AgentCommand): void {
  program
    .command('undone')
    .argument('<id>', 'the plan item whose marker to remove')
    .description('remove a completion marker (a done plan item goes back to pending)')
    .option('--force', "change it although another agent's live claim holds it")
    .helpAfter('\nExample:\n  $ agent-state undone t1')
    .run<{ force?: boolean }>(async (ctx, [id], flags) => {
      const { markUndone } = await import('../../markers/mark-done.js');
      const result = await markUndone(id!, { ...ctx, ...flags });
      const item = result.item ? ` (${result.item.id} is ${result.item.status})` : '';
      return {
        text: result.removed
          ? `Removed the marker of ${result.id}${item}`
          : `${result.id} had no marker${item}`,
        json: result,
      };
    });
}
