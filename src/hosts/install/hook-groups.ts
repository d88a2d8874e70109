// The `hooks` map that Claude Code, Codex and Gemini CLI share:
//   { "hooks": { "<Event>": [ { "matcher": "...", "hooks": [ { "type": "command", ... } ] } ] } }
// Pure functions that put our handlers in and take exactly them out again, leaving every other
// key, event, group and handler where it was; and the one FileEdit of such a file, for any host.
import type { HostAdapter, HostFile } from '../host-adapter.js';
import type { HookBinary } from './hook-binary.js';
import { jsonEdit, type FileEdit, type JsonEditSpec } from './file-edits.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json-text.js';

/** One handler we want registered for one event. */
export interface HostHookSpec {
  event: string;
  /** Omitted: the group matches every occurrence of the event. */
  matcher?: string;
  /** The handler object as the host expects it (`type`, `command`, `timeout`, ...). */
  handler: JsonObject;
}

/** The handlers a host's settings get: one command per registered event. */
export function hostHookSpecs(host: HostAdapter, binary: HookBinary): HostHookSpec[] {
  const command = `${binary.command} hook ${host.name}`;
  return Object.entries(host.events).flatMap(([event, { matcher, timeout, extra }]) =>
    timeout === undefined
      ? []
      : [
          {
            event,
            ...(matcher === undefined ? {} : { matcher }),
            handler: extra?.name
              ? { name: extra.name, type: 'command', command, timeout, ...extra }
              : { type: 'command', command, timeout, ...extra },
          },
        ],
  );
}

/** Recognizes a host's hook handlers, whatever path they start agent-state by. */
export function isHostHook(host: Pick<HostAdapter, 'name'>): HandlerTest {
  return commandRuns('hook', host.name);
}

/** A hooks file's FileEdit: exactly our handlers in (or out), then `more` (a status line). */
export function hooksFileEdit(
  host: HostAdapter,
  file: HostFile,
  binary: HookBinary,
  more?: Pick<JsonEditSpec, 'install' | 'remove' | 'holdsOurs'>,
): FileEdit {
  const specs = hostHookSpecs(host, binary);
  const isOurs = isHostHook(host);
  const same = (s: JsonObject) => s;
  return jsonEdit({
    ...file,
    install: (s) => (more?.install ?? same)(mergeHooks(s, specs, isOurs)),
    remove: (s) => (more?.remove ?? same)(removeHooks(s, isOurs)),
    holdsOurs: (s) => hasOurHooks(s, isOurs) || more?.holdsOurs(s) === true,
  });
}

/** Recognizes our handlers (by their command), so updates and removal touch nothing else. */
export type HandlerTest = (handler: JsonValue | undefined) => boolean;

const groupsOf = (hooks: JsonObject, event: string): JsonValue[] =>
  Array.isArray(hooks[event]) ? hooks[event] : [];
const handlersOf = (group: JsonValue): JsonValue[] =>
  isJsonObject(group) && Array.isArray(group.hooks) ? group.hooks : [];

const groupFor = ({ matcher, handler }: HostHookSpec): JsonObject =>
  matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] };

// A group that holds only our handler(s): safe to replace or drop whole.
function isOurGroup(group: JsonValue, isOurs: HandlerTest): boolean {
  const handlers = handlersOf(group);
  return handlers.length > 0 && handlers.every(isOurs);
}

/** Each handler of ours in `settings.hooks`, with its event, its group's index and matcher. */
export function ourHandlers(settings: JsonObject, isOurs: HandlerTest) {
  const hooks = isJsonObject(settings.hooks) ? settings.hooks : {};
  return Object.keys(hooks).flatMap((event) =>
    groupsOf(hooks, event).flatMap((group, g) => {
      const matcher =
        isJsonObject(group) && typeof group.matcher === 'string' ? group.matcher : undefined;
      return handlersOf(group).flatMap((handler, h) =>
        isOurs(handler) && isJsonObject(handler) ? [{ event, g, matcher, h, handler }] : [],
      );
    }),
  );
}

/** Whether `settings.hooks` holds any handler of ours. */
export const hasOurHooks = (settings: JsonObject, isOurs: HandlerTest): boolean =>
  ourHandlers(settings, isOurs).length > 0;

/**
 * Returns `settings` with exactly `specs` as our handlers: an up-to-date group is left as it is,
 * an outdated one is replaced in place, a missing one is appended to its event, and ours under
 * events no longer wanted are removed. Never mutates its input.
 */
export function mergeHooks(
  settings: JsonObject,
  specs: readonly HostHookSpec[],
  isOurs: HandlerTest,
): JsonObject {
  const wanted = new Map<string, HostHookSpec>(specs.map((spec) => [spec.event, spec]));
  const before = isJsonObject(settings.hooks) ? settings.hooks : undefined;
  let hooks: JsonObject = structuredClone(before ?? {});
  for (const event of Object.keys(hooks))
    if (!wanted.has(event)) hooks = removeFromEvent(hooks, event, isOurs);
  for (const spec of specs) {
    const desired = groupFor(spec);
    const groups = groupsOf(hooks, spec.event);
    const ourIndexes = groups.flatMap((g, i) => (isOurGroup(g, isOurs) ? [i] : []));
    const first = ourIndexes[0];
    // Our handler hidden inside someone else's group: take it out, then add our own group.
    const mixed = groups.some((g) => !isOurGroup(g, isOurs) && handlersOf(g).some(isOurs));
    if (first === undefined || mixed) {
      const cleaned = removeFromEvent(hooks, spec.event, isOurs);
      hooks = { ...cleaned, [spec.event]: [...groupsOf(cleaned, spec.event), desired] };
      continue;
    }
    const next = groups.filter((_, i) => i === first || !ourIndexes.includes(i));
    next[next.indexOf(groups[first]!)] = desired;
    hooks = { ...hooks, [spec.event]: next };
  }
  if (!before && Object.keys(hooks).length === 0) return settings;
  return { ...settings, hooks };
}

// Takes our handlers out of one event; drops groups and the event key that only we filled.
function removeFromEvent(hooks: JsonObject, event: string, isOurs: HandlerTest): JsonObject {
  const groups = hooks[event];
  if (!Array.isArray(groups)) return hooks;
  let changed = false;
  const kept: JsonValue[] = [];
  for (const group of groups) {
    const handlers = handlersOf(group);
    const rest = handlers.filter((h) => !isOurs(h));
    changed ||= rest.length < handlers.length;
    if (rest.length === handlers.length) kept.push(group);
    else if (rest.length > 0) kept.push({ ...(group as JsonObject), hooks: rest });
  }
  if (!changed) return hooks;
  const next = { ...hooks };
  if (kept.length > 0) next[event] = kept;
  else delete next[event];
  return next;
}

/** Returns `settings` without any handler of ours (and without containers only ours filled). */
export function removeHooks(settings: JsonObject, isOurs: HandlerTest): JsonObject {
  const before = settings.hooks;
  if (!isJsonObject(before)) return settings;
  let hooks = before;
  for (const event of Object.keys(before)) hooks = removeFromEvent(hooks, event, isOurs);
  if (hooks === before) return settings;
  const next = { ...settings };
  if (Object.keys(hooks).length > 0) next.hooks = hooks;
  else delete next.hooks;
  return next;
}

/** A test for handlers whose command runs `agent-state <subcommand...>` (any install path). */
export function commandRuns(...words: string[]): HandlerTest {
  const tail = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  const pattern = new RegExp(`agent-state(?:\\.js)?["']?\\s+${tail}(?:\\s|$)`);
  return (handler) =>
    isJsonObject(handler) && typeof handler.command === 'string' && pattern.test(handler.command);
}
