// `agent-state statusline` (lean: Claude Code runs it after each message; `integrate claude
// --statusline`): one line for the human, from the host's session JSON on stdin when there is one.
import { EXIT } from '../../error-report.js';
import type { LeanCommand } from '../parse-args.js';
import { readStdin } from '../read-stdin.js';

export const statuslineCommand: LeanCommand = {
  spec: {
    name: 'statusline',
    description:
      'one line for a status bar: stage · next action · plan done/total · checkpoint age · signals',
    help: `
Claude Code runs it after each assistant message (statusLine setting) with session JSON on stdin;
it works without stdin too. Never fails: without .agent/ it prints a short hint.

Examples:
  $ agent-state statusline
  $ agent-state statusline --json
  $ agent-state integrate claude --statusline`,
  },

  async run(_parsed, { cwd, env, out, io }) {
    const { statuslineReport } = await import('../../hosts/claude/statusline.js');
    const report = await statuslineReport(await readStdin(io), { cwd, env });
    if (out.json) out.printJson(report.json);
    else io.stdout.write(`${report.line}\n`);
    return EXIT.OK;
  },
};
