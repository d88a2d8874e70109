// Task Master's tasks.json: the tagged layout (`{"master": {"tasks": [...]}}`, since 0.17) or the
// legacy one (`{"tasks": [...]}`), subtasks included. The tag imported is the current one
// (.taskmaster/state.json), else master.
import { locate, parseYaml, type NodePath } from '../state/yaml-doc.js';
import type { PlanStatus } from '../types.js';
import {
  emptySource,
  isObject,
  mapStatus,
  parseJson,
  refuser,
  type ImportItem,
  type ImportSource,
  type TextFile,
} from './import-source.js';

const STATUSES: Record<string, PlanStatus> = {
  pending: 'pending',
  'in-progress': 'running',
  review: 'running',
  done: 'done',
  completed: 'done',
  blocked: 'blocked',
  deferred: 'blocked',
  cancelled: 'skipped',
};

/** Reads tasks.json (and state.json for the current tag) into an ImportSource. */
export function parseTaskmaster(file: TextFile, state?: TextFile): ImportSource {
  const data = parseJson(file.text, file.display);
  const line = (path: NodePath) => locate(parseYaml(file.text, file.display), path).line;
  const refuse = refuser(file.display, 'fix tasks.json (or let Task Master write it), then import');
  const bad = (path: NodePath, message: string) => refuse(line(path), message);
  const source = emptySource('taskmaster');
  let tag: string | null = null;
  let base: NodePath = ['tasks'];
  let tasks = (data as { tasks?: unknown }).tasks as unknown[];
  if (!isObject(data) || !Array.isArray(tasks)) {
    const tags = isObject(data)
      ? Object.keys(data).filter((k) => isObject(data[k]) && Array.isArray(data[k].tasks))
      : [];
    if (tags.length === 0)
      bad([], 'expected Task Master tasks: {"tasks": [...]} or {"master": {"tasks": [...]}}');
    const current =
      state && (parseJson(state.text, state.display) as { currentTag?: unknown }).currentTag;
    tag = typeof current === 'string' ? current : 'master';
    if (!tags.includes(tag))
      bad([], `no tag "${tag}" in tasks.json (its tags: ${tags.join(', ')})`);
    base = [tag, 'tasks'];
    tasks = (data as Record<string, { tasks: unknown[] }>)[tag]!.tasks;
    for (const other of tags.filter((t) => t !== tag))
      source.warnings.push(
        `tag "${other}" not imported: \`task-master use-tag ${other}\`, then import again`,
      );
  }
  const key = (id: string) =>
    tag === null || tag === 'master' ? `taskmaster#${id}` : `taskmaster#${tag}/${id}`;
  const read = (task: unknown, path: NodePath, parent?: string): ImportItem => {
    if (!isObject(task)) bad(path, 'expected a task: {"id", "title", "status", ...}');
    const t = task as Record<string, unknown>;
    if (!(Number.isInteger(t.id) || (typeof t.id === 'string' && /^\d+$/.test(t.id))))
      bad([...path, 'id'], `expected a whole number as the task id, got ${JSON.stringify(t.id)}`);
    if (typeof t.title !== 'string' || t.title.trim() === '')
      bad([...path, 'title'], `task ${String(t.id)}: expected a title`);
    const id = parent ? `${parent}.${String(t.id)}` : String(t.id);
    const deps = t.dependencies ?? [];
    if (!Array.isArray(deps) || deps.some((d) => typeof d !== 'number' && typeof d !== 'string'))
      bad([...path, 'dependencies'], `task ${id}: expected a list of task ids as its dependencies`);
    const fail = (message: string) => bad([...path, 'status'], message);
    const status = mapStatus(STATUSES, t.status ?? 'pending', `task ${id}`, fail);
    // A subtask's dependency without a dot is a sibling (`1` in 3.2 means 3.1), as Task Master reads it.
    const needs = (deps as (string | number)[]).map((d) =>
      key(parent && !String(d).includes('.') ? `${parent}.${d}` : String(d)),
    );
    return { source: key(id), title: t.title as string, status, needs };
  };
  tasks.forEach((task, i) => {
    const item = read(task, [...base, i]);
    source.items.push(item);
    const subtasks = (task as { subtasks?: unknown }).subtasks ?? [];
    if (!Array.isArray(subtasks))
      bad([...base, i, 'subtasks'], `${item.source}: expected a list of subtasks`);
    const parentNeeds = [...item.needs];
    (subtasks as unknown[]).forEach((sub, j) => {
      const subItem = read(sub, [...base, i, 'subtasks', j], String((task as { id: unknown }).id));
      // The first subtasks (those that need no sibling) wait for what their parent waits for;
      // the parent is finished when its subtasks are.
      const prefix = `${item.source}.`;
      if (!subItem.needs.some((n) => n.startsWith(prefix))) subItem.needs.push(...parentNeeds);
      item.needs.push(subItem.source);
      source.items.push(subItem);
    });
  });
  return source;
}
