// Beads' .beads/issues.jsonl: one issue per line (`bd export`), with its blocking dependencies;
// memory lines (`"_type": "memory"`) become durable memory.
import type { PlanStatus } from '../types.js';
import {
  emptySource,
  isObject,
  mapStatus,
  parseJson,
  refuser,
  type ImportSource,
  type TextFile,
} from './import-source.js';

const STATUSES: Record<string, PlanStatus> = {
  open: 'pending',
  pinned: 'pending',
  in_progress: 'running',
  hooked: 'running',
  blocked: 'blocked',
  deferred: 'blocked',
  closed: 'done',
};

// The dependency types that hold an issue back (Beads' own "blocking edges"); parent-child and
// the association types (related, discovered-from, ...) are not needs.
const BLOCKING = new Set(['blocks', 'waits-for', 'conditional-blocks']);

/** Reads issues.jsonl into an ImportSource. */
export function parseBeads(file: TextFile): ImportSource {
  const source = emptySource('beads');
  const refuse = refuser(file.display, 'fix the line (or export again: `bd export`), then import');
  file.text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    const bad = (message: string) => refuse(line, message);
    const record = parseJson(raw, file.display, line);
    if (!isObject(record)) bad('expected one JSON object per line (an issue or a memory)');
    const r = record as Record<string, unknown>;
    if (r._type === 'memory') {
      if (typeof r.key === 'string' && typeof r.value === 'string')
        source.memory.durable.push(`${r.key}: ${r.value}`);
      return;
    }
    if (r._type !== undefined && r._type !== 'issue')
      bad(`expected "_type" to be "issue" or "memory", got ${JSON.stringify(r._type)}`);
    if (typeof r.id !== 'string' || r.id === '') bad('expected an issue with an "id"');
    if (typeof r.title !== 'string' || r.title.trim() === '')
      bad(`issue ${String(r.id)}: expected a "title"`);
    if (r.status === 'tombstone') return; // deleted in Beads
    const deps = r.dependencies ?? [];
    const isDep = (d: unknown) => isObject(d) && typeof d.depends_on_id === 'string';
    if (!Array.isArray(deps) || !deps.every(isDep))
      bad(`issue ${String(r.id)}: expected "dependencies" as a list of {"depends_on_id", "type"}`);
    const [id, title] = [r.id as string, r.title as string];
    const status = mapStatus(STATUSES, r.status ?? 'open', `issue ${id}`, bad);
    const blocking = (deps as { depends_on_id: string; type?: unknown }[]).filter((d) =>
      BLOCKING.has(String(d.type ?? 'blocks')),
    );
    const needs = blocking.map((d) => `beads#${d.depends_on_id}`);
    source.items.push({ source: `beads#${id}`, title, status, needs });
  });
  if (source.items.length === 0 && source.memory.durable.length === 0)
    refuse(1, 'no issue in the file');
  return source;
}
