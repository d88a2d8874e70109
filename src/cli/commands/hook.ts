// `agent-state hook <name>`: what the installed git hooks run. It lives in its own lean bundle
// (src/cli/hook-entry.ts, which git hooks reach directly); this registration gives it --help and
// the global options, and loads that bundle by path so the main bundle carries none of it.
import { join } from 'node:path';
import type { Command } from 'commander';
import { packageRoot } from '../../package-root.js';
import type { RunState } from '../action.js';
import { loadCached } from '../load-cached.js';
import type { ExitCode } from '../exit-codes.js';
import type { runHook as RunHook } from '../hook-entry.js';
import { HOOK_NAMES, type HookName } from '../../git-hooks/hook-types.js';

export function registerHook(program: Command, state: RunState): void {
  program
    .command('hook')
    .description('run the checks of one git hook (the installed hooks call this; docs/hooks.md)')
    .addArgument(
      program
        .createArgument('<name>', 'the hook: pre-commit, post-checkout or post-merge')
        .choices(HOOK_NAMES),
    )
    .argument('[args...]', 'the arguments git passed to the hook')
    .addHelpText(
      'after',
      `
pre-commit blocks (exit 1) when a staged state file is invalid or a staged path is Forbidden;
it warns when the commit changes a file a completion marker covers (hooks.stale_markers: block
makes that blocking). AGENT_STATE=0 skips every check; AGENT_STATE_ALLOW_FORBIDDEN=1 lets
Forbidden paths through for one commit. post-checkout and post-merge record the fact in
the event log (git.checkout, git.merge) and never fail.

Examples:
  $ agent-state hook pre-commit
  $ AGENT_STATE_ALLOW_FORBIDDEN=1 git commit -m "Migrate the storage schema"
  $ agent-state hook post-checkout "$OLD" "$NEW" 1`,
    )
    .action(async (name: string, args: string[], _options: unknown, command: Command) => {
      const ctx = state.makeContext(command);
      // The fast path's bundle (CommonJS, compiled through the code cache like main.cjs).
      const entry = join(packageRoot(), 'dist', 'bundle', 'hook-entry.cjs');
      const { runHook } = loadCached(entry) as { runHook: typeof RunHook };
      const code = await runHook(name as HookName, args, {
        cwd: ctx.cwd,
        json: ctx.out.json,
        quiet: ctx.out.quiet,
        color: ctx.out.style.level > 0,
      });
      state.exitCode = code as ExitCode;
    });
}
