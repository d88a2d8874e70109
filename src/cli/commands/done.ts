// `agent-state done ID [--files GLOB... | --refresh] [--note TEXT]`: record a completion marker.
import type { AgentCommand } from '../agent-command.js';
import { plural } from '../../text/plural.js';
import { recordFact } from '../record.js';

export function registerDone(program: AgentCommand): void {
  program
    .command('done')
    .argument('<id>', 'the plan item that is finished')
    .description(
      'mark a plan item done, recording the sha256 of the files it produced (a completion marker)',
    )
    .option(
      '--files <glob...>',
      'files the step produced (globs relative to the current directory)',
    )
    .option(
      '--refresh',
      "record the marker's files again: the same globs matched anew (after a STALE)",
    )
    .option('--note <text>', 'how the step was finished')
    .option('--force', "mark it done although another agent's live claim holds it")
    .helpAfter(
      `
A restarted agent runs \`agent-state check ID\` before redoing a step: the marker stays valid
while every recorded file hashes the same. When it went STALE and the step is still done,
--refresh records the same globs again. Without --files nothing can be re-checked: check
reports the marker as unverifiable and exits 1 unless --allow-unverifiable; a marker that has
files is never replaced by one without (use --refresh, other --files, or undone).

Examples:
  $ agent-state done t-k3f9a --files "src/auth/**" test/auth.test.ts
  $ agent-state done t-k3f9a --refresh
  $ agent-state done t2 --note "decided to keep the v1 API"`,
    )
    .run<{ files?: string[]; refresh?: boolean; note?: string; force?: boolean }>(
      async (ctx, [id], flags) => {
        const { markDone } = await import('../../markers/mark-done.js');
        const result = await markDone(id!, { ...ctx, ...flags });
        const count = result.files;
        const head = result.marker.commit ? ` at ${result.marker.commit.slice(0, 7)}` : '';
        const what =
          count === 0
            ? 'no files recorded (the marker cannot be re-checked)'
            : `${plural(count, 'file')} recorded`;
        const warnings = await recordFact(ctx, {
          type: 'step.completed',
          step: result.id,
          title: result.item.title,
        });
        return {
          text: `${result.id} is done${head}: ${what}${result.replaced ? ' (replaced the previous marker)' : ''}`,
          json: result,
          warnings,
        };
      },
    );
}
