// `agent-state remind [TEXT]`: queue a one-shot note for the next boot, or list the queued ones.
import type { AgentCommand } from '../agent-command.js';
import { queueReminder } from '../../state/reminders.js';
import { loadState } from '../../task/load-state.js';
import { updateProgress } from '../../task/update-progress.js';
import { ago } from '../../boot/model.js';
import { plural } from '../../text/plural.js';

export function registerRemind(program: AgentCommand): void {
  program
    .command('remind')
    .argument('[text]', 'what the next boot must say once (omit to list what is queued)')
    .description('queue a one-shot reminder: the next boot shows it, then it is gone')
    .helpAfter(
      '\nExamples:\n  $ agent-state remind "Ask the user about the max page size before merging"\n  $ agent-state remind --json',
    )
    .run(async (ctx, [text]) => {
      const now = ctx.now();
      if (text === undefined) {
        const reminders = loadState(ctx).progress.reminders ?? [];
        const lines = reminders.map(
          (r) => `- ${r.text}  ${ctx.out.style.dim(`(queued ${ago(r.at, now)})`)}`,
        );
        return {
          text: reminders.length ? lines.join('\n') : '(no reminder queued)',
          json: { reminders },
        };
      }
      const { result: reminder, progress } = await updateProgress(
        (p) => queueReminder(p, text, now),
        { ...ctx, now: () => now },
      );
      const pending = progress.reminders?.length ?? 0;
      return {
        text: `Queued for the next boot: ${reminder.text} (${plural(pending, 'reminder')} queued)`,
        json: { reminder, pending, revision: progress.revision },
      };
    });
}
