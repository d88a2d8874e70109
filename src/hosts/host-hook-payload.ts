// Reading what a host writes on a hook's stdin. The JSON is decoded here; what its fields mean is
// the host adapter's. Claude Code, Codex and Gemini CLI share one payload shape (hook_event_name,
// session_id, cwd, tool_name, ...), read by parseHookCall; field names per host come from their
// hook references and from running them (docs/integrations.md). An event the adapter does not
// list parses as kind `other`, so a new host event never breaks the session.
import type { HostAdapter } from './host-adapter.js';
import type { HostHookEvent } from './host-hook-event.js';

/** The payload is not what a hook expects (garbage on stdin). */
export class HostHookInputError extends Error {}

export type HookPayload = Record<string, unknown>;

/** A non-empty string field, or undefined. */
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;

/** An object field, or {}. */
export const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Parses one hook call's stdin (a JSON object) with a host's adapter. */
export function parseHostHookPayload(host: HostAdapter, text: string, cwd: string): HostHookEvent {
  const trimmed = text.trim();
  if (trimmed === '')
    throw new HostHookInputError('nothing on stdin (the host sends a JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new HostHookInputError(
      `stdin is not JSON (starts with ${JSON.stringify(trimmed.slice(0, 20))})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HostHookInputError('stdin is JSON but not an object');
  return host.parse(value as HookPayload, cwd);
}

/**
 * A payload of the shape Claude Code, Codex and Gemini CLI share. `toolOk` says whether a
 * post-tool call succeeded, which each host reports its own way.
 */
export function parseHookCall(
  host: HostAdapter,
  p: HookPayload,
  cwd: string,
  toolOk: (p: HookPayload, event: string) => boolean,
): HostHookEvent {
  const name = str(p.hook_event_name);
  if (!name) throw new HostHookInputError('the payload has no "hook_event_name"');
  const kind = host.events[name]?.kind ?? 'other';
  const event: HostHookEvent = {
    host: host.name,
    kind,
    hostEvent: name,
    cwd: str(p.cwd) ?? cwd,
    sessionId: str(p.session_id) ?? null,
  };
  const transcript = str(p.transcript_path);
  if (transcript) event.transcriptPath = transcript;
  const at = str(p.timestamp);
  if (at && !Number.isNaN(Date.parse(at))) event.at = new Date(at).toISOString();
  if (kind === 'session-start') event.source = str(p.source) ?? str(p.trigger) ?? 'startup';
  if (kind === 'pre-compact' || kind === 'post-compact')
    event.trigger = str(p.trigger) ?? str(p.triggered_by) ?? 'auto';
  if (kind === 'stop') event.stopHookActive = p.stop_hook_active === true;
  if (kind === 'pre-tool' || kind === 'post-tool') {
    const toolName = str(p.tool_name);
    if (!toolName) throw new HostHookInputError(`the ${name} payload has no "tool_name"`);
    const id = str(p.tool_use_id);
    event.tool = {
      name: toolName,
      input: obj(p.tool_input),
      ...(kind === 'post-tool' ? { ok: toolOk(p, name) } : {}),
      ...(id ? { id } : {}),
    };
  }
  return event;
}
