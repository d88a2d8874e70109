// `agent-state statusline`: one line for the human (Claude Code's statusLine command; installed
// by `integrate claude --statusline`). Reads the host's session JSON on stdin when there is one.
import type { Command } from 'commander';
import type { RunState } from '../action.js';
import { readStdin } from '../read-stdin.js';

export function registerStatusline(program: Command, state: RunState): void {
  program
    .command('statusline')
    .description(
      'one line for a status bar: stage · next action · plan done/total · checkpoint age · signals',
    )
    .addHelpText(
      'after',
      `
Claude Code runs it after each assistant message (statusLine setting) with session JSON on stdin;
it works without stdin too. Never fails: without .agent/ it prints a short hint.

Examples:
  $ agent-state statusline
  $ agent-state integrate claude --statusline`,
    )
    .action(async (_options: unknown, command: Command) => {
      const ctx = state.makeContext(command);
      const { runStatusline } = await import('../../integrations/statusline.js');
      process.stdout.write(await runStatusline(await readStdin(), { cwd: ctx.cwd, env: ctx.env }));
      state.exitCode = 0;
    });
}
