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
  $ agent-state statusline --json
  $ agent-state integrate claude --statusline`,
    )
    .action(async (_options: unknown, command: Command) => {
      const ctx = state.makeContext(command);
      const { statuslineReport } = await import('../../integrations/statusline.js');
      const report = await statuslineReport(await readStdin(), { cwd: ctx.cwd, env: ctx.env });
      if (ctx.out.json) ctx.out.printJson(report.json);
      else process.stdout.write(`${report.line}\n`);
      state.exitCode = 0;
    });
}
