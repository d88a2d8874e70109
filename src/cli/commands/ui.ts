// `agent-state ui`: a live, read-only page of the Task Context on a local server, until Ctrl-C.
// The server and the page load only when this command runs (src/ui/, imported lazily).
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';
import { formatWarning, untilInterrupted } from '../action.js';

interface UiFlags {
  port: string;
  host: string;
  open?: boolean;
  token: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function registerUi(program: AgentCommand): void {
  program
    .command('ui')
    .description('serve a live, read-only page of the task state on 127.0.0.1 (Ctrl-C stops)')
    .option('--port <n>', 'the port to listen on (0: any free port)', '0')
    .option(
      '--host <address>',
      'the address to listen on (anything but loopback is reachable by others)',
      '127.0.0.1',
    )
    .option('--open', 'open the page in the default browser')
    .option(
      '--no-token',
      'accept requests without the random token (any local user can read the page)',
    )
    .helpAfter(
      `
The page shows the goal, Constraints and Forbidden zones, the next action and current step, the
plan with its completion markers (verified or STALE), the status and its signals, the event
timeline, evidence, drift since the last checkpoint, what the last boot left out, and the
checkpoints with the git command that restores each. It updates as the state changes and never
writes a file. The URL carries a random token; requests without it get 403, and requests for
another host name (DNS rebinding) are refused. docs/ui.md explains the page.

Examples:
  $ agent-state ui --open
  $ agent-state ui --port 8377
  $ agent-state report --html report.html     # the same page as one file`,
    )
    .run<UiFlags>(async (ctx, _args, flags) => {
      if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535)
        throw new UsageError(`--port ${flags.port} is not a port number`, {
          hint: 'use a number from 1 to 65535, or 0 for any free port',
        });
      const { startUiServer } = await import('../../ui/serve.js');
      const server = await startUiServer({
        ...ctx,
        port: Number(flags.port),
        host: flags.host,
        token: flags.token,
        onError: (error) =>
          ctx.out.warn(
            formatWarning({
              file: 'ui',
              message: error instanceof Error ? error.message : String(error),
            }),
          ),
      });
      if (!LOOPBACK.has(flags.host))
        ctx.out.error(
          `warning: listening on ${flags.host}: anyone who can reach this address${server.token ? ' and has the URL' : ''} can read the task state`,
        );
      if (!server.token)
        ctx.out.error(
          'warning: --no-token: any local user or program can read the task state on this port',
        );
      const interrupted = untilInterrupted();
      if (ctx.out.json)
        ctx.io.stdout.write(
          `${JSON.stringify({ type: 'ready', url: server.url, host: server.host, port: server.port })}\n`,
        );
      else
        ctx.out.print(
          `Serving the task state (read-only) at\n  ${server.url}\nPress Ctrl-C to stop.`,
        );
      if (flags.open) {
        const { openUrl } = await import('../open-url.js');
        const failure = await openUrl(server.url, ctx.env);
        if (failure)
          ctx.out.warn(`could not open a browser (${failure}): open the URL above yourself`);
      }
      await interrupted;
      await server.close();
    });
}
