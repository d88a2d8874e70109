// Gemini CLI: hooks in .gemini/settings.json (project; ~/.gemini/settings.json for user), with
// timeouts in milliseconds, and the protocol block in GEMINI.md. It has no hook after a
// compression: its chat recording is what proves one (gemini-transcript.ts).
// Format: https://geminicli.com/docs/hooks/reference (see docs/integrations.md).
import { join } from 'node:path';
import {
  doctorCheck,
  scopeFile,
  type HostAdapter,
  type HostHookRegistration,
  type InstallContext,
} from '../host-adapter.js';
import type { HostHookEvent, HostHookKind, HostHookOutcome } from '../host-hook-event.js';
import { obj, parseHookCall, str, type HookPayload } from '../host-hook-payload.js';
import { hooksFileEdit } from '../install/hook-groups.js';
import type { JsonObject } from '../install/json-text.js';
import { protocolBlockEdit } from '../install/protocol-block.js';
import { geminiCompressedSince, transcriptSize } from './gemini-transcript.js';
import { geminiTrust, geminiUserDir, trustFolderEdit } from './gemini-trust.js';

// What `integrate gemini` registers (timeouts in milliseconds, Gemini's unit), each with a handler
// name (for `/hooks enable|disable`), the description shown in `/hooks panel`, and a matcher:
// the tools that change files, and only /compress's PreCompress (it fires before every model
// call, its trigger is the matcher).
const FILE_TOOLS = 'write_file|replace|run_shell_command';
const NOTE_ONLY = 'note that a compression may follow (counted once the chat recording shows it)';
const EVENTS: Record<string, HostHookRegistration> = Object.fromEntries(
  (
    [
      ['SessionStart', 'session-start', 20000, 'the boot prompt (goal, constraints, next action)'],
      ['BeforeAgent', 'prompt', 5000, 'the boot prompt after a compression, else the status delta'],
      ['BeforeTool', 'pre-tool', 5000, 'Forbidden paths, denied tools, file scopes', FILE_TOOLS],
      ['AfterTool', 'post-tool', 5000, 'record tool facts; the status when a signal fires'],
      ['PreCompress', 'pre-compact', 10000, NOTE_ONLY, 'manual'],
    ] satisfies [string, HostHookKind, number, string, string?][]
  ).map(([event, kind, timeout, what, matcher]) => {
    const name = `agent-state-${event.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())}`;
    const extra = { name, description: `agent-state: ${what}` };
    return [event, { kind, ...(matcher ? { matcher } : {}), timeout, extra }];
  }),
);

// Gemini CLI (0.61) reports a shell command's failure only inside llmContent: "Output: ...",
// then trailer lines "Error: ...", "Exit Code: N" (when not 0), "Signal: N", "Background PIDs:",
// "Process Group PGID: N", wrapped in <untrusted_context>. Read the trailer from the end, so an
// "Exit Code:" the command itself printed is not taken for its own.
const TRAILER = /^(Exit Code|Signal|Error|Background PIDs|Process Group PGID): ?(.*)$/;

function llmText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(llmText).join('\n');
  return str(obj(content).text) ?? '';
}

function geminiToolOk(p: HookPayload): boolean {
  const r = obj(p.tool_response);
  if (r.error) return false;
  if (p.tool_name !== 'run_shell_command') return true;
  const text = llmText(r.llmContent)
    .replace(/^\s*<untrusted_context>\s*/, '')
    .replace(/\s*<\/untrusted_context>\s*$/, '');
  if (/^Command was (?:automatically )?cancelled/.test(text)) return false;
  const lines = text.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    const m = TRAILER.exec(lines[i]!);
    if (!m) break;
    if (m[1] === 'Exit Code') return m[2]!.trim() === '0';
    if (m[1] === 'Signal' && m[2]!.trim() !== '(none)') return false;
  }
  return true;
}

// BeforeTool denies with decision/reason; context through hookSpecificOutput on SessionStart,
// BeforeAgent and AfterTool; PreCompress is advisory.
function geminiOutput(event: HostHookEvent, outcome: HostHookOutcome): JsonObject {
  if (event.kind === 'pre-tool') {
    if (outcome.deny) return { decision: 'deny', reason: outcome.deny };
    return outcome.context ? { systemMessage: outcome.context } : {};
  }
  if (event.kind === 'stop' && outcome.block) return { decision: 'deny', reason: outcome.block };
  const out: JsonObject = {};
  if (outcome.context && ['session-start', 'prompt', 'post-tool'].includes(event.kind))
    out.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: outcome.context };
  return out;
}

// The trust step Gemini CLI needs: without it, it loads no hooks in this folder.
function trustNote({ trust, root, env }: InstallContext): string {
  if (trust) return 'Gemini CLI trusts this folder now (as its "Trust folder" choice would)';
  const decided = geminiTrust(root, env);
  if (decided.trusted) return `Gemini CLI trusts this folder (${decided.reason})`;
  return `Gemini CLI runs no hooks in a folder it does not trust (${decided.reason}; headless it exits with code 55): run \`agent-state integrate gemini --trust\`, or start \`gemini\` here and choose "Trust folder"`;
}

export const geminiHost: HostAdapter = {
  name: 'gemini',
  events: EVENTS,
  // Gemini CLI (0.61) escapes `<` and `>` in a hook's additionalContext, so the `<agent-status>`
  // XML would arrive as `&lt;agent-status&gt;`: it gets Markdown.
  statusFormat: 'markdown',
  scopes: ['project', 'user'],
  flags: ['trust'],
  projectDir: '$GEMINI_PROJECT_DIR',
  hooksFile: (scope, root, env) =>
    scopeFile(scope === 'user' ? geminiUserDir(env) : null, root, '.gemini', 'settings.json'),
  parse: (p, cwd) => parseHookCall(geminiHost, p, cwd, geminiToolOk),
  render: geminiOutput,
  install(context) {
    const { scope, root, env, binary } = context;
    const user = scope === 'user';
    const edits = [
      hooksFileEdit(geminiHost, geminiHost.hooksFile!(scope, root, env), binary),
      user
        ? protocolBlockEdit(join(geminiUserDir(env), 'GEMINI.md'), '~/.gemini/GEMINI.md')
        : protocolBlockEdit(join(root, 'GEMINI.md'), 'GEMINI.md'),
    ];
    // Removed only when asked (`--remove --trust`): the user may trust the folder for more.
    if (context.trust) edits.push(trustFolderEdit(root, env));
    return {
      edits,
      notes: [
        trustNote(context),
        '`/hooks panel` in Gemini CLI lists the hooks (before 0.26: enable them in /settings → Advanced → Enable Hooks System)',
      ],
    };
  },
  // Gemini CLI loads no hooks at all (project or user) in a folder it does not trust, and exits
  // with code 55 when run headless there: the hooks would look installed and never run.
  doctor(root, env, hooksFound) {
    if (!hooksFound) return [];
    const { trusted, reason } = geminiTrust(root, env);
    return [
      trusted
        ? doctorCheck('gemini folder trust', 'ok', `trusted: ${reason}`)
        : doctorCheck(
            'gemini folder trust',
            'fail',
            `Gemini CLI does not trust this folder (${reason}), so it runs none of the hooks (headless it exits with code 55)`,
            'run `agent-state integrate gemini --trust`',
          ),
    ];
  },
  transcript: {
    offset: transcriptSize,
    shows: ({ transcript, at }) =>
      transcript ? geminiCompressedSince(transcript.path, transcript.offset, at) : false,
  },
};
