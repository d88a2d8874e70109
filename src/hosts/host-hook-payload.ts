// Parsing what each host writes on a hook's stdin into a HookEvent. Field names per host come from
// their hook references and from running them (docs/integrations.md); unknown events parse as
// kind `other`, so a new host event never breaks the session. For Codex, whose tool responses
// carry no exit code, the session transcript the payload names is read too.
import { codexToolOk } from './codex/codex-exit-code.js';
import type { HookEvent, HookKind, HostName } from './host-hook-event.js';

/** The payload is not what a hook expects (garbage on stdin). */
export class HookInputError extends Error {}

type Payload = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

// Claude Code and Codex share event names; Gemini CLI has its own.
const CLAUDE_KINDS: Record<string, HookKind> = {
  SessionStart: 'session-start',
  UserPromptSubmit: 'prompt',
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  PostToolUseFailure: 'post-tool',
  PreCompact: 'pre-compact',
  PostCompact: 'post-compact',
  Stop: 'stop',
};

const GEMINI_KINDS: Record<string, HookKind> = {
  SessionStart: 'session-start',
  BeforeAgent: 'prompt',
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  PreCompress: 'pre-compact',
  AfterAgent: 'stop',
};

// The plugin's own names: OpenCode's hooks and events, and `session.start` for the first agent
// turn of a session it sees (source startup or resume; a `session.compacted` event is source compact).
const OPENCODE_KINDS: Record<string, HookKind> = {
  'session.start': 'session-start',
  'session.compacted': 'session-start',
  'tool.execute.before': 'pre-tool',
  'tool.execute.after': 'post-tool',
  'experimental.session.compacting': 'pre-compact',
};

// Gemini CLI (0.61) reports a shell command's failure only inside llmContent: "Output: ...",
// then trailer lines "Error: ...", "Exit Code: N" (when not 0), "Signal: N", "Background PIDs:",
// "Process Group PGID: N", wrapped in <untrusted_context>. Read the trailer from the end, so an
// "Exit Code:" the command itself printed is not taken for its own.
const GEMINI_TRAILER = /^(Exit Code|Signal|Error|Background PIDs|Process Group PGID): ?(.*)$/;

function llmText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(llmText).join('\n');
  return str(obj(content).text) ?? '';
}

function geminiToolOk(toolName: string, response: unknown): boolean {
  const r = obj(response);
  if (r.error) return false;
  if (toolName !== 'run_shell_command') return true;
  const text = llmText(r.llmContent)
    .replace(/^\s*<untrusted_context>\s*/, '')
    .replace(/\s*<\/untrusted_context>\s*$/, '');
  if (/^Command was (?:automatically )?cancelled/.test(text)) return false;
  const lines = text.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    const m = GEMINI_TRAILER.exec(lines[i]!);
    if (!m) break;
    if (m[1] === 'Exit Code') return m[2]!.trim() === '0';
    if (m[1] === 'Signal' && m[2]!.trim() !== '(none)') return false;
  }
  return true;
}

function decode(text: string): Payload {
  const trimmed = text.trim();
  if (trimmed === '') throw new HookInputError('nothing on stdin (the host sends a JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new HookInputError(
      `stdin is not JSON (starts with ${JSON.stringify(trimmed.slice(0, 20))})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HookInputError('stdin is JSON but not an object');
  return value as Payload;
}

/** Parses one hook call's stdin; throws HookInputError for anything a host would not send. */
export function parseHookPayload(host: HostName, text: string, fallbackCwd: string): HookEvent {
  const p = decode(text);
  const cwd = str(p.cwd) ?? fallbackCwd;
  const sessionId = str(p.session_id) ?? null;
  if (host === 'opencode') {
    const name = str(p.event);
    if (!name) throw new HookInputError('the opencode payload has no "event"');
    const kind = OPENCODE_KINDS[name] ?? 'other';
    const tool = str(p.tool);
    const source = name === 'session.compacted' ? 'compact' : (str(p.source) ?? 'startup');
    return {
      host,
      kind,
      hostEvent: name,
      cwd,
      sessionId,
      ...(kind === 'session-start' ? { source } : {}),
      ...(tool ? { tool: { name: tool, input: obj(p.args), ok: p.ok !== false } } : {}),
    };
  }
  const name = str(p.hook_event_name);
  if (!name) throw new HookInputError('the payload has no "hook_event_name"');
  const kind = (host === 'gemini' ? GEMINI_KINDS : CLAUDE_KINDS)[name] ?? 'other';
  const event: HookEvent = { host, kind, hostEvent: name, cwd, sessionId };
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
    if (!toolName) throw new HookInputError(`the ${name} payload has no "tool_name"`);
    let ok: boolean | undefined;
    if (kind === 'post-tool') {
      if (host === 'claude') ok = name !== 'PostToolUseFailure';
      else if (host === 'codex')
        ok = codexToolOk(p.tool_response, str(p.tool_use_id), str(p.transcript_path));
      else ok = geminiToolOk(toolName, p.tool_response);
    }
    event.tool = { name: toolName, input: obj(p.tool_input), ...(ok === undefined ? {} : { ok }) };
  }
  return event;
}
