// Codex's trust, which decides whether agent-state's hooks run at all. Codex [0.171] loads a
// project's .codex/ (hooks.json, config.toml) only when `[projects."<root>"] trust_level =
// "trusted"` is in $CODEX_HOME/config.toml, and runs a hook only when
// `[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash` matches the hook's hash;
// otherwise `codex exec` skips it without a word. The hash is Codex's: sha256 of the canonical
// JSON (sorted keys) of {event_name, matcher, hooks: [the handler, normalized]} (checked against
// `codex app-server`'s hooks/list in test/hosts/codex-trust.test.ts). Pure: text in, text out.
import { canonicalJson } from '../../events/sections.js';
import { createHash } from '../../text/lazy-crypto.js';
import { ourHandlers, type HandlerTest } from '../install/hook-groups.js';
import type { JsonObject } from '../install/json-text.js';

// The hooks.json events Codex trusts; its key for one is its HookEventName in snake case.
const EVENTS = new Set([
  ...'SessionStart UserPromptSubmit PreToolUse PermissionRequest PostToolUse'.split(' '),
  ...'PreCompact PostCompact Stop SubagentStart SubagentStop'.split(' '),
]);
const eventKey = (event: string) =>
  event.replace(/[A-Z]/g, (c, i: number) => (i ? '_' : '') + c.toLowerCase());

// Codex ignores the matcher of events that have none (UserPromptSubmit, Stop).
const NO_MATCHER = new Set(['user_prompt_submit', 'stop']);

/** Codex's hash of one command handler in one matcher group. */
export function codexHookHash(
  eventKey: string,
  matcher: string | undefined,
  handler: JsonObject,
): string {
  const normalized: JsonObject = {
    type: 'command',
    command: String(handler.command),
    timeout: typeof handler.timeout === 'number' ? Math.max(1, handler.timeout) : 600,
    async: handler.async === true,
  };
  if (typeof handler.statusMessage === 'string') normalized.statusMessage = handler.statusMessage;
  const identity: JsonObject = { event_name: eventKey, hooks: [normalized] };
  if (matcher !== undefined && !NO_MATCHER.has(eventKey)) identity.matcher = matcher;
  return `sha256:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
}

/**
 * The hooks Codex needs to trust, of the handlers `isOurs` picks in a hooks.json object at `path`:
 * each one's key in [hooks.state], the hash it must carry, and its event as hooks.json names it.
 */
export function codexHookTrusts(hooksFile: JsonObject, path: string, isOurs: HandlerTest) {
  return ourHandlers(hooksFile, isOurs).flatMap(({ event, g, matcher, h, handler }) => {
    if (!EVENTS.has(event)) return [];
    const hash = codexHookHash(eventKey(event), matcher, handler);
    return [{ key: `${path}:${eventKey(event)}:${g}:${h}`, hash, event }];
  });
}

// A TOML basic string for a key or value.
const tomlString = (s: string) => JSON.stringify(s);

// A TOML quoted string (basic or literal), and its value.
const QUOTED = `("(?:[^"\\\\]|\\\\.)*"|'[^']*')`;
const unquote = (q: string) => (q.startsWith('"') ? (JSON.parse(q) as string) : q.slice(1, -1));

// Table headers `[prefix."key"]` (basic or literal quoted key) with the value of `field` in it.
function tablesWith(text: string, prefix: string, field: string): Map<string, string | null> {
  const found = new Map<string, string | null>();
  const header = new RegExp(
    `^\\s*\\[\\s*${prefix.replace('.', '\\s*\\.\\s*')}\\s*\\.\\s*${QUOTED}\\s*\\]\\s*(?:#.*)?$`,
  );
  const assignment = new RegExp(`^\\s*${field}\\s*=\\s*${QUOTED}`);
  let current: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = header.exec(line);
    if (m || /^\s*\[/.test(line)) {
      current = m ? unquote(m[1]!) : null;
      if (current !== null) found.set(current, null);
      continue;
    }
    const value = current === null ? null : assignment.exec(line);
    if (value) found.set(current!, unquote(value[1]!));
  }
  return found;
}

/** What a config.toml (its text; '' when there is none) says about trust, table by table. */
export function readCodexTrust(configToml: string) {
  return {
    // `[projects."<path>"] trust_level`, by path.
    projects: tablesWith(configToml, 'projects', 'trust_level'),
    // `[hooks.state."<key>"] trusted_hash`, by key.
    hooks: tablesWith(configToml, 'hooks.state', 'trusted_hash'),
  };
}

/** Project trust levels and trusted hook hashes, as readCodexTrust reads them. */
export type CodexTrustState = ReturnType<typeof readCodexTrust>;
/** A hook Codex needs to trust (codexHookTrusts). */
export type CodexHookTrust = ReturnType<typeof codexHookTrusts>[number];

/** What is missing for Codex to run our hooks: the project's trust, and untrusted hooks. */
export function codexTrustGaps(
  state: CodexTrustState,
  hooks: readonly CodexHookTrust[],
  projectRoot: string | null,
) {
  const level = projectRoot === null ? 'trusted' : state.projects.get(projectRoot);
  const untrusted = hooks.filter((h) => state.hooks.get(h.key) !== h.hash);
  return {
    // The project root, when it must be trusted and is not (null: fine, or user scope).
    project: level === 'trusted' ? null : projectRoot,
    // Explicitly untrusted: agent-state leaves that decision alone.
    projectDenied: level === 'untrusted',
    // Hooks without a matching trusted hash; `modified`: of those, the ones trusted with another
    // hash elsewhere in the file (changed since).
    untrusted,
    modified: untrusted.filter((h) => typeof state.hooks.get(h.key) === 'string'),
  };
}

/**
 * The body of agent-state's managed block in $CODEX_HOME/config.toml: the project's trust (unless
 * the file already decides it) and a trusted hash for each of our hooks (unless the file already
 * has a table for that key: TOML forbids defining a table twice).
 */
export function codexTrustBlock(
  outside: CodexTrustState,
  hooks: readonly CodexHookTrust[],
  projectRoot: string | null,
): string {
  const tables: string[] = [];
  if (projectRoot !== null && !outside.projects.has(projectRoot))
    tables.push(`[projects.${tomlString(projectRoot)}]\ntrust_level = "trusted"`);
  for (const hook of hooks) {
    if (outside.hooks.has(hook.key)) continue;
    tables.push(`[hooks.state.${tomlString(hook.key)}]\ntrusted_hash = ${tomlString(hook.hash)}`);
  }
  return tables.join('\n\n');
}
