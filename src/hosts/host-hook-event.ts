// The host-neutral shape of a host hook call: an adapter parses a payload into a HostHookEvent,
// the core handles it once, the adapter renders the HostHookOutcome in the host's format.
import type { HostName } from './host-names.js';

/** What happened in the host, independent of its event names. */
export type HostHookKind =
  | 'session-start' // a session began, resumed, was cleared, or was compacted
  | 'prompt' // the user submitted a prompt
  | 'pre-tool' // a tool is about to run
  | 'post-tool' // a tool ran (ok or not)
  | 'pre-compact' // the context may be compacted now (the host may still decide not to)
  | 'post-compact' // the host says the context was compacted (PostCompact, session.compacted)
  | 'stop' // the agent finished its turn
  | 'other'; // anything else: acknowledged, nothing done

/** A tool call as the host described it. */
export interface HostHookTool {
  /** The host's tool name (`Edit`, `apply_patch`, `write_file`, `edit`, ...). */
  name: string;
  input: Record<string, unknown>;
  /** post-tool: whether it succeeded. */
  ok?: boolean;
  /** The host's id of this call (`tool_use_id`), when it sends one. */
  id?: string;
}

/** One host hook call, host-neutral. */
export interface HostHookEvent {
  host: HostName;
  kind: HostHookKind;
  /** The host's own event name (for output that must echo it). */
  hostEvent: string;
  /** The session's working directory (where the state root is looked up). */
  cwd: string;
  sessionId: string | null;
  /** session-start: startup, resume, clear, compact (Claude Code), fork, ... */
  source?: string;
  /** pre-compact and post-compact: manual or auto. */
  trigger?: string;
  /** The host's transcript of the session (Gemini CLI: its chat recording), when it names one. */
  transcriptPath?: string;
  /** When the host fired the hook (its payload's timestamp), when it says. */
  at?: string;
  tool?: HostHookTool;
  /** stop: the host is already continuing because a stop hook blocked once. */
  stopHookActive?: boolean;
}

/** What the hook decided; rendered per host. Empty means: print nothing. */
export interface HostHookOutcome {
  /** Text for the agent's context (boot prompt, status delta, warning). */
  context?: string;
  /** pre-tool: refuse the tool call, with this reason (shown to the agent). */
  deny?: string;
  /** stop / pre-compact: refuse once, with this reason. */
  block?: string;
  /** Something that failed without stopping the hook: one line on stderr. */
  note?: string;
}

/** A fact a host hook records in the event log (see schemas/event.schema.json). */
export interface HostHookFact {
  type: string;
  [field: string]: unknown;
}
