// `agent-state hook <name>`: what the installed git hooks run. Git hooks reach it through the lean
// entry (src/cli/hook-entry.ts); this registration gives it --help and the global options.
import type { Command } from 'commander';
import type { RunState } from '../action.js';
import { HOOK_COMMANDS, runHookCommand, type HookCommand } from '../hook-run.js';

export function registerHook(program: Command, state: RunState): void {
  program
    .command('hook')
    .description('run the checks of one git hook (the installed hooks call this; docs/hooks.md)')
    .addArgument(
      program
        .createArgument('<name>', 'the hook: pre-commit, post-checkout or post-merge')
        .choices(HOOK_COMMANDS),
    )
    .argument('[args...]', 'the arguments git passed to the hook')
    .addHelpText(
      'after',
      `
pre-commit blocks (exit 1) when a staged state file is invalid or a staged path is Forbidden;
it warns when the commit changes a file a completion marker covers (hooks.stale_markers: block
makes that blocking). AGENT_STATE=0 skips every check; AGENT_STATE_ALLOW_FORBIDDEN=1 lets
Forbidden paths through for one commit. post-checkout and post-merge record the fact in
.agent/log/git-events.jsonl and never fail.

Examples:
  $ agent-state hook pre-commit
  $ AGENT_STATE_ALLOW_FORBIDDEN=1 git commit -m "Migrate the storage schema"
  $ agent-state hook post-checkout "$OLD" "$NEW" 1`,
    )
    .action(async (name: string, args: string[], _options: unknown, command: Command) => {
      const ctx = state.makeContext(command);
      state.exitCode = await runHookCommand(name as HookCommand, args, {
        cwd: ctx.cwd,
        env: ctx.env,
        json: ctx.out.json,
        quiet: ctx.out.quiet,
        paint: ctx.out.style,
        now: ctx.now,
        stdout: (text) => void process.stdout.write(text),
        stderr: (text) => void process.stderr.write(text),
      });
    });
}
