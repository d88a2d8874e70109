// `agent-state import FORMAT [PATH] [--dry-run]`: bring another tool's plan, goal, next action
// and memory into .agent/ (src/import/).
import type { Command } from 'commander';
import { IMPORT_FORMATS, type ImportFormat } from '../../import/import-source.js';
import type { ImportedValue } from '../../import/import-state.js';
import { PLAN_STATUS_ICONS } from '../../state/plan.js';
import { defineAction, type RunState } from '../action.js';
import { plural } from '../format.js';

function valueLine(what: string, value: ImportedValue, dry: boolean): string | null {
  if (value.action === 'none') return null;
  const set = dry ? 'would set' : 'set';
  if (value.action === 'set') return `${what}: ${set} "${value.text}"`;
  if (value.action === 'same') return `${what}: already "${value.text}"`;
  return `${what}: kept the one there (the files say "${value.text}")`;
}

export function registerImport(program: Command, state: RunState): void {
  program
    .command('import')
    .addArgument(
      program.createArgument('<format>', 'the tool the state comes from').choices(IMPORT_FORMATS),
    )
    .argument(
      '[path]',
      "the tool's file or folder (default: where it keeps it, from the repository root)",
    )
    .option('--dry-run', 'write nothing; list what the import would do')
    .description("import another tool's plan, goal, next action and memory into .agent/")
    .addHelpText(
      'after',
      `
Formats and where they are looked for (docs/cli.md#import says what maps to what):
  taskmaster    .taskmaster/tasks/tasks.json (tagged or legacy; the current tag; subtasks)
  beads         .beads/issues.jsonl
  gsd           .planning/ (PROJECT, REQUIREMENTS, ROADMAP, STATE)
  memory-bank   memory-bank/ (projectbrief, activeContext, progress)
  spec-kit      specs/<feature>/tasks.md

Each item keeps its id there as its source (source: taskmaster#12): importing the same files
again adds nothing twice. An empty goal or next action is filled; one already set is kept. Input
that cannot be read is refused with exit 2 and file:line, before anything is written.

Examples:
  $ agent-state import taskmaster --dry-run
  $ agent-state import beads
  $ agent-state import spec-kit specs/001-photo-albums
  $ agent-state import gsd --json`,
    )
    .action(
      defineAction<{ dryRun?: boolean }>(state, async (ctx, [format, path], flags) => {
        const { importState } = await import('../../import/import-state.js');
        const result = await importState(format as ImportFormat, path, {
          cwd: ctx.cwd,
          env: ctx.env,
          now: ctx.now,
          dryRun: flags.dryRun,
        });
        const dry = result.dry_run;
        const lines = [
          `${dry ? 'Would import' : 'Imported'} from ${format}: ${result.files.join(', ')}`,
        ];
        for (const item of result.added) {
          const needs = item.depends_on?.length
            ? ctx.out.style.dim(` (after ${item.depends_on.join(', ')})`)
            : '';
          lines.push(
            `  + ${PLAN_STATUS_ICONS[item.status]} ${item.id} ${item.title}${needs} ${ctx.out.style.dim(item.source!)}`,
          );
        }
        if (result.unchanged.length)
          lines.push(
            `  = ${plural(result.unchanged.length, 'item')} imported before, left as they are`,
          );
        const memory = result.memory.durable.length + result.memory.working.length;
        lines.push(
          ...[
            valueLine('goal', result.goal, dry),
            valueLine('next action', result.next_action, dry),
          ]
            .filter((l) => l !== null)
            .map((l) => `  ${l}`),
          ...(memory
            ? [
                `  memory: ${dry ? 'would add' : 'added'} ${plural(memory, 'note')} (${result.memory.durable.length} durable, ${result.memory.working.length} working)`,
              ]
            : []),
          dry
            ? '(dry run: nothing was written)'
            : result.changed
              ? `${plural(result.added.length, 'item')} added`
              : 'Nothing new: nothing was written',
        );
        return {
          text: lines.join('\n'),
          json: result,
          warnings: result.warnings.map((message) => ({ file: result.files[0]!, message })),
        };
      }),
    );
}
