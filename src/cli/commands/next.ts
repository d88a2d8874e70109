// `agent-state next [TEXT] [--stage S]`: show or set the next action and the stage.
import type { AgentCommand } from '../agent-command.js';
import { loadState } from '../../task/load-state.js';
import { updateProgress } from '../../task/update-progress.js';
import { UsageError } from '../../errors.js';
import { recordFact } from '../record.js';

export function registerNext(program: AgentCommand): void {
  program
    .command('next')
    .argument('[text]', 'the next concrete action (omit to show the current one)')
    .description('show or set the next action (and the stage)')
    .option('--stage <name>', 'set the stage too (planning, implementing, testing, ...)')
    .helpAfter(
      '\nExamples:\n  $ agent-state next\n  $ agent-state next "Write the failing test for token refresh" --stage implementing',
    )
    .run<{ stage?: string }>(async (ctx, [text], flags) => {
      if (text !== undefined && text.trim() === '')
        throw new UsageError('the next action is empty', {
          hint: 'say what to do next: agent-state next "Run the migration"',
        });
      if (flags.stage !== undefined && flags.stage.trim() === '')
        throw new UsageError('--stage is empty', { hint: 'name the stage: --stage testing' });
      const show = text === undefined && flags.stage === undefined;
      const { progress, changed } = show
        ? { progress: loadState(ctx).progress, changed: false }
        : await updateProgress((p) => {
            if (text !== undefined) p.next_action = text.trim();
            if (flags.stage !== undefined) p.stage = flags.stage.trim();
          }, ctx);
      const json = {
        stage: progress.stage ?? '',
        next_action: progress.next_action ?? '',
        changed,
      };
      const stage = json.stage ? `  [stage: ${json.stage}]` : '';
      if (show) return { text: `${json.next_action || '(no next action set)'}${stage}`, json };
      const warnings = changed
        ? await recordFact(ctx, {
            type: 'task.updated',
            ...(text !== undefined ? { next_action: json.next_action } : {}),
            ...(flags.stage !== undefined ? { stage: json.stage } : {}),
          })
        : [];
      return {
        text: `${changed ? 'Next' : 'Unchanged'}: ${json.next_action}${stage}`,
        json,
        warnings,
      };
    });
}
