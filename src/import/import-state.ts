// `agent-state import`: find another tool's files, parse all of them, then write the plan, the
// goal, the next action and the memory through the store in one locked step. Items are matched
// by `source`, so importing the same files again changes nothing; a dry run writes nothing.
import { createHash } from '../text/lazy-crypto.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { InvalidStateError, UsageError } from '../errors.js';
import { findRoot } from '../state/find-root.js';
import { addPlanItem, findCycle, newPlanId } from '../state/plan.js';
import { readStateText } from '../state/read-text.js';
import { readGoals, setGoalLocked, withStateLock } from '../state/store.js';
import { loadState } from '../task/load-state.js';
import { updateProgressLocked, type UpdateOptions } from '../task/update-progress.js';
import type { PlanItem, Progress } from '../types.js';
import { parseBeads } from './beads.js';
import { parseGsd } from './gsd.js';
import type { ImportFormat, ImportSource, Reader } from './import-source.js';
import { parseMemoryBank } from './memory-bank.js';
import { parseSpecKit } from './spec-kit.js';
import { parseTaskmaster } from './taskmaster.js';

/** What became of the goal or the next action: `set` (it was empty), `same`, `kept` (it differs and stays), `none` (the files have none). */
export interface ImportedValue {
  action: 'set' | 'same' | 'kept' | 'none';
  text: string | null;
}

export interface ImportResult {
  format: ImportFormat;
  files: string[];
  dry_run: boolean;
  /** Whether anything was (or, in a dry run, would be) written. */
  changed: boolean;
  added: PlanItem[];
  /** Sources already in the plan, left as they are. */
  unchanged: string[];
  goal: ImportedValue;
  next_action: ImportedValue;
  memory: { durable: string[]; working: string[] };
  warnings: string[];
}

// Where each format keeps its main file, below the folder given (or the repository root).
const LOOK: Record<ImportFormat, string[]> = {
  taskmaster: ['.taskmaster/tasks/tasks.json', 'tasks/tasks.json', 'tasks.json'],
  beads: ['.beads/issues.jsonl', 'issues.jsonl'],
  gsd: ['.planning/ROADMAP.md', 'ROADMAP.md'],
  'memory-bank': [
    'memory-bank/projectbrief.md',
    'memory-bank/activeContext.md',
    'activeContext.md',
  ],
  'spec-kit': ['tasks.md'],
};

function mainFile(format: ImportFormat, base: string, shown: string): string {
  if (existsSync(base) && !statSync(base).isDirectory()) return base;
  const found = LOOK[format].map((p) => join(base, p)).find((p) => existsSync(p));
  if (found) return found;
  const specs = join(base, 'specs');
  const features = format === 'spec-kit' && existsSync(specs) ? readdirSync(specs) : [];
  const tasks = features.filter((f) => existsSync(join(specs, f, 'tasks.md')));
  if (tasks.length === 1) return join(specs, tasks[0]!, 'tasks.md');
  if (tasks.length > 1)
    throw new UsageError(`several spec-kit features under ${shown}/specs: ${tasks.join(', ')}`, {
      hint: `name one: agent-state import spec-kit specs/${tasks[0]}`,
    });
  const looked = LOOK[format].join(', ');
  throw new UsageError(`no ${format} files found at ${shown} (looked for ${looked})`, {
    hint: `give the path: agent-state import ${format} PATH`,
  });
}

/** Reads and parses the files of `format` at `path` (default: the repository root). */
export function readImportSource(
  format: ImportFormat,
  path: string | undefined,
  root: string,
  cwd: string,
): ImportSource {
  const display = (p: string) =>
    relative(root, p).startsWith('..') ? p : relative(root, p) || '.';
  const base = resolve(cwd, path ?? root);
  const main = mainFile(format, base, display(base));
  const files: string[] = [];
  const read: Reader = (name) => {
    const p = resolve(dirname(main), name);
    if (!existsSync(p)) return undefined;
    const shown = display(p);
    files.push(shown);
    const restoreHint = `fix ${shown}, then import again`;
    const text = readStateText(p, { display: shown, maxBytes: 16 << 20, restoreHint });
    return { text, display: shown };
  };
  const file = () => read(basename(main))!;
  const parse: Record<ImportFormat, () => ImportSource> = {
    taskmaster: () => parseTaskmaster(file(), read('../state.json')),
    beads: () => parseBeads(file()),
    gsd: () => parseGsd(read),
    'memory-bank': () => parseMemoryBank(read),
    'spec-kit': () => parseSpecKit(file(), basename(dirname(main))),
  };
  return { ...parse[format](), files };
}

function value(current: string | undefined, incoming: string | undefined): ImportedValue {
  if (!incoming?.trim()) return { action: 'none', text: null };
  const text = incoming.replace(/\s+/g, ' ').trim();
  return { action: !current?.trim() ? 'set' : current.trim() === text ? 'same' : 'kept', text };
}

/**
 * Applies an ImportSource to a progress value (pure): adds the items whose source is not in the
 * plan yet, maps their needs to plan ids, fills an empty next action, adds new memory notes.
 */
export function mergeImport(
  progress: Progress,
  anchor: string,
  source: ImportSource,
): Omit<ImportResult, 'dry_run'> {
  const plan = (progress.plan ??= []);
  const ids = new Map(plan.flatMap((i) => (i.source ? [[i.source, i.id]] : [])));
  const warnings = [...source.warnings];
  const added: [string[], PlanItem][] = [];
  const unchanged: string[] = [];
  for (const it of source.items) {
    if (ids.has(it.source)) {
      unchanged.push(it.source);
      continue;
    }
    // Drawn from the source id, not at random: a dry run names the ids the import then writes.
    let n = 0;
    const draw = () =>
      parseInt(createHash('sha256').update(`${it.source}:${n++}`).digest('hex').slice(0, 12), 16) /
      16 ** 12;
    const item = addPlanItem(progress, {
      title: it.title.slice(0, 500),
      id: newPlanId(plan, draw),
    });
    Object.assign(item, { status: it.status, source: it.source });
    ids.set(it.source, item.id);
    added.push([it.needs, item]);
  }
  for (const [needs, item] of added) {
    for (const n of needs.filter((n) => !ids.has(n)))
      warnings.push(`${item.source} needs ${n}, which is not in the files: that need was dropped`);
    const known = [...new Set(needs.filter((n) => ids.has(n)).map((n) => ids.get(n)!))];
    if (known.length) item.depends_on = known;
  }
  const cycle = findCycle(plan);
  if (cycle) {
    const sourceOf = new Map(plan.map((i) => [i.id, i.source ?? i.id]));
    const circle = cycle.map((id) => sourceOf.get(id)).join(' → ');
    throw new InvalidStateError(`the needs in the files go round in a circle: ${circle}`, {
      location: { file: source.files[0]! },
      hint: 'drop one of these dependencies, then import again',
    });
  }
  const next = value(progress.next_action, source.nextAction);
  if (next.action === 'set') progress.next_action = next.text!;
  const memory = { durable: [] as string[], working: [] as string[] };
  for (const kind of ['durable', 'working'] as const) {
    const notes = ((progress.memory ??= {})[kind] ??= []);
    for (const text of source.memory[kind].map((t) => t.slice(0, 2000)))
      if (!notes.includes(text)) {
        notes.push(text);
        memory[kind].push(text);
      }
  }
  const goal = value(anchor, source.goal);
  const changed =
    added.length > 0 ||
    [goal, next].some((v) => v.action === 'set') ||
    memory.durable.length + memory.working.length > 0;
  const items = added.map(([, item]) => item);
  return { ...source, changed, added: items, unchanged, goal, next_action: next, memory, warnings };
}

/** Imports another tool's state (`agent-state import FORMAT [PATH]`); writes nothing in a dry run. */
export async function importState(
  format: ImportFormat,
  path: string | undefined,
  options: UpdateOptions & { dryRun?: boolean } = {},
): Promise<ImportResult> {
  const paths = findRoot(options.cwd);
  const source = readImportSource(format, path, paths.root, options.cwd ?? process.cwd());
  if (options.dryRun) {
    const state = loadState(options);
    const merged = mergeImport(structuredClone(state.progress), state.goals.anchor, source);
    return { ...merged, dry_run: true };
  }
  const run = async () => {
    const anchor = readGoals(paths).goals.anchor;
    const merge = (p: Progress) => mergeImport(p, anchor, source);
    const { result } = await updateProgressLocked(paths, merge, options);
    // progress.yaml is validated and written first; the goal is a plain edit of one paragraph.
    if (result.goal.action === 'set') setGoalLocked(paths, result.goal.text!);
    return { ...result, dry_run: false };
  };
  return withStateLock(paths, run, options);
}
