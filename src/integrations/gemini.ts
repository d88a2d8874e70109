// Gemini CLI: hooks in .gemini/settings.json (project; ~/.gemini/settings.json for user), with
// timeouts in milliseconds, and the protocol block in GEMINI.md.
// Format: https://geminicli.com/docs/hooks/reference (see docs/integrations.md).
import { join } from 'node:path';
import type { FileEdit } from './file-edits.js';
import { commandRuns, hasOurHooks, mergeHooks, removeHooks, type HookSpec } from './hook-groups.js';
import type { HookBinary } from './hook-binary.js';
import { jsonEdit } from './json-edit.js';
import type { IntegrationPlan } from './plan.js';
import { protocolBlockEdit } from './protocol-block.js';

export type GeminiScope = 'project' | 'user';

/** Gemini's tools that change files: write_file, replace, and the shell. */
export const GEMINI_EDIT_MATCHER = 'write_file|replace|run_shell_command';

/** What `integrate gemini` registers; timeouts in milliseconds (Gemini's unit). */
export const GEMINI_HOOK_EVENTS: readonly {
  event: string;
  matcher?: string;
  timeout: number;
  description: string;
}[] = [
  {
    event: 'SessionStart',
    timeout: 20000,
    description: 'agent-state: the boot prompt (goal, constraints, next action)',
  },
  {
    event: 'BeforeAgent',
    timeout: 5000,
    description: 'agent-state: the boot prompt after a compression, else the status delta',
  },
  {
    event: 'BeforeTool',
    matcher: GEMINI_EDIT_MATCHER,
    timeout: 5000,
    description: 'agent-state: Forbidden paths, denied tools, file scopes',
  },
  {
    event: 'AfterTool',
    timeout: 5000,
    description: 'agent-state: record tool facts; the status when a signal fires',
  },
  { event: 'PreCompress', timeout: 10000, description: 'agent-state: record the compression' },
];

export interface GeminiPlanOptions {
  scope: GeminiScope;
  binary: HookBinary;
  root: string;
  /** Gemini's user directory (~/.gemini). */
  geminiHome: string;
}

export const isGeminiHook = commandRuns('hook', 'gemini');

/** The hook specs for a binary. */
export function geminiHookSpecs(binary: HookBinary): HookSpec[] {
  return GEMINI_HOOK_EVENTS.map(({ event, matcher, timeout, description }) => ({
    event,
    ...(matcher === undefined ? {} : { matcher }),
    handler: {
      name: `agent-state-${event.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())}`,
      type: 'command',
      command: `${binary.command} hook gemini`,
      timeout,
      description,
    },
  }));
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
  return {
    edits,
    notes: [
      'check with /hooks panel in Gemini CLI that the hooks system is enabled (older versions: /settings → Advanced → Enable Hooks System)',
    ],
  };
}

/** The edits that `integrate gemini --remove` undoes. */
export function geminiRemovalPlan(options: GeminiPlanOptions): IntegrationPlan {
  return { edits: geminiPlan(options).edits, notes: [] };
}
