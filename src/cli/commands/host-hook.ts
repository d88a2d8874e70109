// `agent-state hook claude|codex|gemini|opencode`: what the host hooks run. Reads the host's JSON
// on stdin and answers on stdout; always exits 0 (see docs/integrations.md). bin/agent-state.js
// sends these calls to the fast entry (cli/hook-main.ts); this registration serves --help and
// calls that come through the full program.
import type { Command } from 'commander';
import type { HostName } from '../../integrations/host-hook/hook-event.js';

// The hosts (also in cli/hook-route.ts, which must stay tiny).
const HOST_NAMES: readonly HostName[] = ['claude', 'codex', 'gemini', 'opencode'];
import type { RunState } from '../action.js';
import { readStdin } from '../read-stdin.js';

/** The `hook` command group, shared with other hook kinds (git hooks register beside these). */
function hookGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'hook') ??
    program.command('hook').description('run a hook (what installed hooks call; not for humans)')
  );
}

export function registerHostHooks(program: Command, state: RunState): void {
  const group = hookGroup(program);
  for (const host of HOST_NAMES) {
    group
      .command(host)
      .description(`handle one ${host} hook call: JSON on stdin, the answer on stdout, exit 0`)
      .addHelpText(
        'after',
        `
Installed by \`agent-state integrate ${host}\`; the host runs it for every hook event.
It never breaks the session: bad input or a missing .agent/ means exit 0 and one line on stderr.

Examples:
  $ echo '{"hook_event_name":"SessionStart","source":"compact","cwd":"'$PWD'"}' | agent-state hook ${host === 'opencode' ? 'claude' : host}`,
      )
      .action(async (_options: unknown, command: Command) => {
        const ctx = state.makeContext(command);
        const { runHostHook } = await import('../../integrations/host-hook/run-host-hook.js');
        const result = await runHostHook(host as HostName, await readStdin(), { cwd: ctx.cwd });
        if (result.stdout) process.stdout.write(result.stdout);
        if (result.stderr) process.stderr.write(result.stderr);
        state.exitCode = 0;
      });
  }
}
