// `agent-state memory add|list|promote|drop`: durable facts and working notes for the boot prompt.
import type { AgentCommand } from '../agent-command.js';
import {
  addMemory,
  dropMemory,
  listMemory,
  parseMemoryRef,
  promoteMemory,
  type MemoryNote,
} from '../../state/memory.js';
import { loadState } from '../../task/load-state.js';
import { updateProgress } from '../../task/update-progress.js';
import type { Progress } from '../../types.js';
import { type CommandContext } from '../action.js';

function memoryOf(progress: Progress) {
  return { durable: progress.memory?.durable ?? [], working: progress.memory?.working ?? [] };
}

function renderNotes(notes: readonly MemoryNote[], ctx: CommandContext): string {
  if (notes.length === 0) return '(no memory: add a note with `agent-state memory add "..."`)';
  const lines: string[] = [];
  for (const kind of ['durable', 'working'] as const) {
    const some = notes.filter((n) => n.kind === kind);
    if (some.length === 0) continue;
    lines.push(ctx.out.style.bold(kind === 'durable' ? 'Durable' : 'Working'));
    for (const note of some)
      lines.push(`  ${note.label.padEnd(4)}${note.text.split('\n').join('\n      ')}`);
  }
  return lines.join('\n');
}

export function registerMemory(program: AgentCommand): void {
  const memory = program
    .command('memory')
    .description(
      'task memory: durable facts (kept) and working notes (dropped first by a tight boot budget)',
    )
    .helpAfter(
      '\nExamples:\n  $ agent-state memory add "limit defaults to 50 in the old code path"\n  $ agent-state memory add "Route handlers live in src/routes/" --durable\n  $ agent-state memory promote w1\n  $ agent-state memory list',
    );

  memory
    .command('add')
    .argument('<text>', 'the note')
    .description('add a working note (or a durable one with --durable)')
    .option('--durable', 'a fact that holds for the whole task')
    .helpAfter('\nExample:\n  $ agent-state memory add "The API uses snake_case" --durable')
    .run<{ durable?: boolean }>(async (ctx, [text], flags) => {
      const { result: note, progress } = await updateProgress(
        (p) => addMemory(p, text!, flags.durable ? 'durable' : 'working'),
        ctx,
      );
      return {
        text: `Added ${note.label} (${note.kind}): ${note.text}`,
        json: { note, memory: memoryOf(progress), revision: progress.revision },
      };
    });

  memory
    .command('list')
    .description('list the notes with their labels (d1, d2, ... durable; w1, w2, ... working)')
    .helpAfter('\nExample:\n  $ agent-state memory list --json')
    .run((ctx) => {
      const { progress } = loadState(ctx);
      return { text: renderNotes(listMemory(progress), ctx), json: memoryOf(progress) };
    });

  memory
    .command('promote')
    .argument('<note>', 'a working note: w1 (or just 1)')
    .description('make a working note durable (only ever done explicitly)')
    .helpAfter('\nExample:\n  $ agent-state memory promote w2')
    .run(async (ctx, [ref]) => {
      const parsed = parseMemoryRef(ref!);
      const { result: note, progress } = await updateProgress((p) => promoteMemory(p, parsed), ctx);
      return {
        text: `Promoted to ${note.label} (durable): ${note.text}`,
        json: { note, memory: memoryOf(progress), revision: progress.revision },
      };
    });

  memory
    .command('drop')
    .argument('<note>', 'the note: w1, d2 (a bare number is a working note)')
    .description('remove a note')
    .helpAfter('\nExample:\n  $ agent-state memory drop w1')
    .run(async (ctx, [ref]) => {
      const parsed = parseMemoryRef(ref!);
      const { result: note, progress } = await updateProgress((p) => dropMemory(p, parsed), ctx);
      return {
        text: `Dropped ${note.label}: ${note.text}`,
        json: { dropped: note, memory: memoryOf(progress), revision: progress.revision },
      };
    });
}
