// Task memory (pure): durable facts and working notes, addressed d1, d2... and w1, w2... (a bare
// number is a working note); only an explicit promotion turns a working note durable.
import { UsageError } from '../errors.js';
import type { Progress } from '../types.js';
import { requireText } from './text-input.js';

export type MemoryKind = 'durable' | 'working';

/** A note's address: its list and 1-based position. */
export interface MemoryRef {
  kind: MemoryKind;
  index: number;
}

/** A note with its address. */
export interface MemoryNote extends MemoryRef {
  label: string;
  text: string;
}

/** The label of a note: `d1`, `w3`. */
export function memoryLabel(ref: MemoryRef): string {
  return `${ref.kind === 'durable' ? 'd' : 'w'}${ref.index}`;
}

/** Parses `w2`, `d1` or `2` (a working note). */
export function parseMemoryRef(text: string): MemoryRef {
  const match = /^([dw]?)(\d+)$/i.exec(text.trim());
  const index = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(index) || index < 1) {
    throw new UsageError(`"${text}" is not a memory note number`, {
      hint: 'use the label shown by `agent-state memory list`: w1, w2, ... or d1, d2, ...',
    });
  }
  return { kind: match[1]!.toLowerCase() === 'd' ? 'durable' : 'working', index };
}

function noteAt(ref: MemoryRef, text: string): MemoryNote {
  return { ...ref, label: memoryLabel(ref), text };
}

function list(progress: Progress, kind: MemoryKind): string[] {
  const memory = (progress.memory ??= {});
  return (memory[kind] ??= []);
}

/** Every note, durable first, with labels. */
export function listMemory(progress: Progress): MemoryNote[] {
  return (['durable', 'working'] as const).flatMap((kind) =>
    (progress.memory?.[kind] ?? []).map((text, i) => noteAt({ kind, index: i + 1 }, text)),
  );
}

/** Adds a note at the end of its list; returns it. */
export function addMemory(progress: Progress, text: string, kind: MemoryKind): MemoryNote {
  const note = requireText(
    text,
    'the note',
    'agent-state memory add "Handlers live in src/routes/"',
  );
  const notes = list(progress, kind);
  notes.push(note);
  return noteAt({ kind, index: notes.length }, note);
}

// Takes the note at `ref` out of its list; returns its text.
function take(progress: Progress, ref: MemoryRef): string {
  const notes = progress.memory?.[ref.kind] ?? [];
  const text = notes[ref.index - 1];
  if (text === undefined) {
    const labels = listMemory(progress).map((n) => n.label);
    throw new UsageError(`no memory note ${memoryLabel(ref)}`, {
      hint: labels.length
        ? `notes present: ${labels.join(', ')}`
        : 'add one with `agent-state memory add "..."`',
    });
  }
  notes.splice(ref.index - 1, 1);
  return text;
}

/** Moves a working note to the end of the durable list; returns its new address. */
export function promoteMemory(progress: Progress, ref: MemoryRef): MemoryNote {
  if (ref.kind !== 'working') {
    throw new UsageError(`${memoryLabel(ref)} is already durable`, {
      hint: 'promote a working note: agent-state memory promote w1',
    });
  }
  const text = take(progress, ref);
  const durable = list(progress, 'durable');
  durable.push(text);
  return noteAt({ kind: 'durable', index: durable.length }, text);
}

/** Removes a note; returns what it was. */
export function dropMemory(progress: Progress, ref: MemoryRef): MemoryNote {
  return noteAt(ref, take(progress, ref));
}
