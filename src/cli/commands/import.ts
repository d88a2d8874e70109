// `agent-state import FORMAT [PATH] [--dry-run]`: bring another tool's plan, goal, next action
// and memory into .agent/ (src/import/).
import type { AgentCommand } from '../agent-command.js';
import { IMPORT_FORMATS, type ImportFormat } from '../../import/import-source.js';
import type { ImportResult } from '../../import/import-state.js';
import { PLAN_STATUS_ICONS } from '../../state/plan.js';
import { plural } from '../../text/plural.js';

// What one import did (or, dry, would do), a line per new item and per value it touched.
function render(r: ImportResult, dim: (text: string) => string): string {
  const dry = r.dry_run;
  const lines = [`${dry ? 'Would import' : 'Imported'} from ${r.format}: ${r.files.join(', ')}`];
  for (const i of r.added) {
    const after = i.depends_on ? dim(` (after ${i.depends_on.join(', ')})`) : '';
    lines.push(`  + ${PLAN_STATUS_ICONS[i.status]} ${i.id} ${i.title}${after} ${dim(i.source!)}`);
  }
  if (r.unchanged.length)
    lines.push(`  = ${plural(r.unchanged.length, 'item')} imported before, left as they are`);
  const label = { set: dry ? 'would set' : 'set', same: 'already', kept: 'kept, not replaced by' };
  for (const [what, v] of Object.entries({ goal: r.goal, 'next action': r.next_action }))
    if (v.action !== 'none') lines.push(`  ${what}: ${label[v.action]} "${v.text}"`);
  const { durable: d, working: w } = r.memory;
  const add = dry ? 'would add' : 'added';
  if (d.length + w.length)
    lines.push(`  memory: ${add} ${d.length} durable, ${w.length} working notes`);
  const done = r.changed
    ? `${plural(r.added.length, 'item')} added`
    : 'Nothing new: nothing was written';
  lines.push(dry ? '(dry run: nothing was written)' : done);
  return lines.join('\n');
}

export function registerImport(program: AgentCommand): void {
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
    .helpAfter(
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
    .run<{ dryRun?: boolean }>(async (ctx, [format, path], flags) => {
      const { importState } = await import('../../import/import-state.js');
      const result = await importState(format as ImportFormat, path, { ...ctx, ...flags });
      return {
        text: render(result, ctx.out.style.dim),
        json: result,
        warnings: result.warnings.map((message) => ({ file: result.files[0]!, message })),
      };
    });
}
