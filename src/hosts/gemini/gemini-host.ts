// Gemini CLI: hooks in .gemini/settings.json (project; ~/.gemini/settings.json for user), with
// timeouts in milliseconds, and the protocol block in GEMINI.md.
// Format: https://geminicli.com/docs/hooks/reference (see docs/integrations.md).
import { join } from 'node:path';
import type { FileEdit } from '../install/file-edits.js';
import {
  commandHookSpecs,
  commandRuns,
  hasOurHooks,
  mergeHooks,
  removeHooks,
  type HookEventSpec,
  type HookSpec,
} from '../install/hook-groups.js';
import { geminiTrust, trustFolderEdit } from './gemini-trust.js';
import type { HookBinary } from '../install/hook-binary.js';
import { jsonEdit } from '../install/json-edit.js';
import type { IntegrationPlan } from '../host-adapter.js';
import { protocolBlockEdit } from '../install/protocol-block.js';

export type GeminiScope = 'project' | 'user';

/** Gemini's tools that change files: write_file, replace, and the shell. */
export const GEMINI_EDIT_MATCHER = 'write_file|replace|run_shell_command';

// Handler names (for `/hooks enable|disable`) and the descriptions shown in `/hooks panel`.
function geminiEvent(
  event: string,
  timeout: number,
  description: string,
  matcher?: string,
): HookEventSpec {
  const name = `agent-state-${event.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())}`;
  return { event, ...(matcher ? { matcher } : {}), timeout, extra: { name, description } };
}

/** What `integrate gemini` registers; timeouts in milliseconds (Gemini's unit). */
export const GEMINI_HOOK_EVENTS: readonly HookEventSpec[] = [
  geminiEvent(
    'SessionStart',
    20000,
    'agent-state: the boot prompt (goal, constraints, next action)',
  ),
  geminiEvent(
    'BeforeAgent',
    5000,
    'agent-state: the boot prompt after a compression, else the status delta',
  ),
  geminiEvent(
    'BeforeTool',
    5000,
    'agent-state: Forbidden paths, denied tools, file scopes',
    GEMINI_EDIT_MATCHER,
  ),
  geminiEvent('AfterTool', 5000, 'agent-state: record tool facts; the status when a signal fires'),
  geminiEvent(
    'PreCompress',
    10000,
    'agent-state: note that a compression may follow (counted once the chat recording shows it)',
  ),
];

export interface GeminiPlanOptions {
  scope: GeminiScope;
  binary: HookBinary;
  root: string;
  /** Gemini's user directory (~/.gemini, or $GEMINI_CLI_HOME/.gemini). */
  geminiHome: string;
  /** Also trust the folder in ~/.gemini/trustedFolders.json (Gemini runs no hooks elsewhere). */
  trust?: boolean;
  env: NodeJS.ProcessEnv;
}

// The trust step Gemini CLI needs: without it, it loads no hooks in this folder.
function trustNote(options: GeminiPlanOptions): string {
  if (options.trust)
    return 'Gemini CLI trusts this folder now (as its "Trust folder" choice would)';
  const trust = geminiTrust(options.root, options.env);
  if (trust.trusted) return `Gemini CLI trusts this folder (${trust.reason})`;
  return `Gemini CLI runs no hooks in a folder it does not trust (${trust.reason}; headless it exits with code 55): run \`agent-state integrate gemini --trust\`, or start \`gemini\` here and choose "Trust folder"`;
}

export const isGeminiHook = commandRuns('hook', 'gemini');

/** The hook specs for a binary. */
export function geminiHookSpecs(binary: HookBinary): HookSpec[] {
  return commandHookSpecs(GEMINI_HOOK_EVENTS, `${binary.command} hook gemini`);
}

/** The files `integrate gemini` edits, and what to tell the user. */
export function geminiPlan(options: GeminiPlanOptions): IntegrationPlan {
  const user = options.scope === 'user';
  const specs = geminiHookSpecs(options.binary);
  const edits: FileEdit[] = [
    jsonEdit({
      path: user
        ? join(options.geminiHome, 'settings.json')
        : join(options.root, '.gemini', 'settings.json'),
      display: user ? '~/.gemini/settings.json' : '.gemini/settings.json',
      install: (s) => mergeHooks(s, specs, isGeminiHook),
      remove: (s) => removeHooks(s, isGeminiHook),
      holdsOurs: (s) => hasOurHooks(s, isGeminiHook),
    }),
    user
      ? protocolBlockEdit(join(options.geminiHome, 'GEMINI.md'), '~/.gemini/GEMINI.md')
      : protocolBlockEdit(join(options.root, 'GEMINI.md'), 'GEMINI.md'),
  ];
  if (options.trust) edits.push(trustFolderEdit(options.root, options.env));
  return {
    edits,
    notes: [
      trustNote(options),
      '`/hooks panel` in Gemini CLI lists the hooks (before 0.26: enable them in /settings → Advanced → Enable Hooks System)',
    ],
  };
}

/** The edits that `integrate gemini --remove` undoes (with --trust, the trust entry too). */
export function geminiRemovalPlan(options: GeminiPlanOptions): IntegrationPlan {
  return { edits: geminiPlan(options).edits, notes: [] };
}
