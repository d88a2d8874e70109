// `agent-state done ID [--files GLOB...] [--note TEXT]`: record a completion marker.
import type { Command } from 'commander';
import { defineAction, type RunState } from '../action.js';
import { plural } from '../format.js';
import { recordFact } from '../record.js';

export function registerDone(program: Command, state: RunState): void {
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
    .option('--note <text>', 'how the step was finished')
    .option('--force', "mark it done although another agent's live claim holds it")
    .addHelpText(
      'after',
      `
A restarted agent runs \`agent-state check ID\` before redoing a step: the marker stays valid
while every recorded file hashes the same. Without --files nothing can be re-checked: check
reports the marker as unverifiable and exits 1 unless --allow-unverifiable.

Examples:
  $ agent-state done t1 --files "src/auth/**" test/auth.test.ts
  $ agent-state done t2 --note "decided to keep the v1 API"`,
    )
    .action(
      defineAction<{ files?: string[]; note?: string; force?: boolean }>(
        state,
        async (ctx, [id], flags) => {
          const { markDone } = await import('../../markers/mark-done.js');
          const result = await markDone(id!, {
            cwd: ctx.cwd,
            env: ctx.env,
            now: ctx.now,
            files: flags.files,
            note: flags.note,
            force: flags.force,
          });
          const count = Object.keys(result.marker.files).length;
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
      ),
    );
}
