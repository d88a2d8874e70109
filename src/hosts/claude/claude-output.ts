// A HookOutcome in each host's documented output format (stdout JSON, exit 0). An empty outcome
// prints nothing: the host then carries on as if no hook had run. The host hands the strings to
// the model (and shows systemMessage to the user) as they are: they pass safeValue first.
import { safeValue } from '../../text/safe-text.js';
import type { HookEvent, HookOutcome, HostName } from '../host-hook-event.js';

/** The status renderings a hook hands a host's model. */
export type StatusFormatForHost = 'xml' | 'markdown';

/**
 * How each host's model gets the status: Gemini CLI (0.61) escapes `<` and `>` in a hook's
 * additionalContext, so the `<agent-status>` XML would arrive as `&lt;agent-status&gt;`: it gets
 * Markdown. The others take the XML as it is.
 */
export function statusFormat(host: HostName): StatusFormatForHost {
  return host === 'gemini' ? 'markdown' : 'xml';
}

type Json = Record<string, unknown>;

function isEmpty(outcome: HookOutcome): boolean {
  return !outcome.context && !outcome.deny && !outcome.block && !outcome.userMessage;
}

// Claude Code: hookSpecificOutput.additionalContext; PreToolUse denies with permissionDecision;
// Stop and PreCompact block with a top-level decision.
function claudeOutput(event: HookEvent, outcome: HookOutcome): Json {
  if (outcome.deny && event.kind === 'pre-tool') {
    return {
      hookSpecificOutput: {
        hookEventName: event.hostEvent,
        permissionDecision: 'deny',
        permissionDecisionReason: outcome.deny,
      },
    };
  }
  if (outcome.block && (event.kind === 'stop' || event.kind === 'pre-compact'))
    return { decision: 'block', reason: outcome.block };
  const out: Json = {};
  if (outcome.context && event.kind !== 'stop' && event.kind !== 'pre-compact')
    out.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: outcome.context };
  if (outcome.userMessage) out.systemMessage = outcome.userMessage;
  return out;
}

// Codex [0.171]: as Claude Code (PreToolUse additionalContext does reach the model), except
// that PreCompact takes only `continue`, `stopReason`, `suppressOutput` and `systemMessage`
// (a `decision` makes its output invalid), and a deny reason gets ". Command: ..." appended.
function codexOutput(event: HookEvent, outcome: HookOutcome): Json {
  if (event.kind === 'pre-compact') {
    return outcome.block ? { continue: false, stopReason: outcome.block } : {};
  }
  return claudeOutput(event, outcome);
}

// Gemini CLI: BeforeTool denies with decision/reason; context through hookSpecificOutput on
// SessionStart, BeforeAgent and AfterTool; PreCompress is advisory.
function geminiOutput(event: HookEvent, outcome: HookOutcome): Json {
  if (event.kind === 'pre-tool') {
    if (outcome.deny) return { decision: 'deny', reason: outcome.deny };
    return outcome.context ? { systemMessage: outcome.context } : {};
  }
  if (event.kind === 'stop' && outcome.block) return { decision: 'deny', reason: outcome.block };
  const out: Json = {};
  if (
    outcome.context &&
    (event.kind === 'session-start' || event.kind === 'prompt' || event.kind === 'post-tool')
  )
    out.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: outcome.context };
  if (outcome.userMessage) out.systemMessage = outcome.userMessage;
  return out;
}

// The OpenCode plugin reads {deny} (it throws to refuse) and {context} (the boot prompt for the
// system prompt, or the text it appends to a tool's result).
function opencodeOutput(_event: HookEvent, outcome: HookOutcome): Json {
  const out: Json = {};
  if (outcome.deny) out.deny = outcome.deny;
  if (outcome.context) out.context = outcome.context;
  return out;
}

/** The text to print on stdout for an outcome ('' when there is nothing to say). */
export function renderHookOutput(event: HookEvent, outcome: HookOutcome): string {
  if (isEmpty(outcome)) return '';
  const render = {
    claude: claudeOutput,
    codex: codexOutput,
    gemini: geminiOutput,
    opencode: opencodeOutput,
  }[event.host];
  const out = render(event, outcome);
  return Object.keys(out).length === 0 ? '' : `${JSON.stringify(safeValue(out))}\n`;
}
