// `agent-state watch`: report changes to the state, to Forbidden paths and to git as they happen,
// until Ctrl-C. With --json, one JSON object per line (the one command whose --json streams).
import type { AgentCommand } from '../agent-command.js';
import type { Style } from '../output.js';
import { safeJson, safeText } from '../../text/safe-text.js';
import type { WatchEvent, WatchSummary } from '../../watch/watch.js';
import { UsageError } from '../../errors.js';
import { formatWarning, untilInterrupted } from '../action.js';
import { plural } from '../../text/plural.js';

const VERB = { add: 'added  ', change: 'changed', unlink: 'removed' } as const;

/** One human line (or two) per change. */
function eventText(e: WatchEvent, style: Style): string {
  const head = `${style.dim(new Date(e.at).toTimeString().slice(0, 8))} ${VERB[e.event]}`;
  // A path may hold a newline: it stays on its line.
  e = { ...e, path: safeText(e.path, { oneLine: true }) };
  if (e.kind === 'git') {
    if (e.path === '.git/HEAD')
      return `${head} ${style.cyan('.git/HEAD')}  ${e.branch ? `on branch ${e.branch}` : 'detached HEAD'}`;
    return `${head} ${style.cyan('.git/index')}  the staged set changed`;
  }
  if (e.kind === 'forbidden')
    return style.red(`${head} ${e.path}  Forbidden (${e.glob}): ${e.rule}`);
  if (e.valid === false) {
    const lines = [style.red(`${head} ${e.path}  invalid`)];
    for (const p of e.problems)
      lines.push(style.red(`    ${p.at}: ${p.message}${p.hint ? ` (fix: ${p.hint})` : ''}`));
    return lines.join('\n');
  }
  const warnings = e.warnings.map((w) => style.yellow(`\n    warning: ${w}`)).join('');
  return `${head} ${e.path}  ${e.event === 'unlink' ? style.yellow('removed') : style.green('valid')}${warnings}`;
}

function summaryText(s: WatchSummary): string {
  return `Stopped after ${s.seconds} s: ${plural(s.changes, 'change')} (${s.forbidden} Forbidden, ${s.invalid} invalid, ${s.git} git).`;
}

export function registerWatch(program: AgentCommand): void {
  program
    .command('watch')
    .description(
      'report changes to the state, Forbidden paths and git as they happen (Ctrl-C stops)',
    )
    .option('--settle <ms>', 'how long a file must stay unchanged before it is read', '100')
    .helpAfter(
      `
Watches .agent/, .git/HEAD, .git/index and the directories of the Forbidden globs (never the
whole tree). A change to a Forbidden path is printed in red with its rule; a changed state file
is validated again. With --json each line is one JSON object: {"type":"ready"}, then
{"type":"change"} per change, and {"type":"summary"} after Ctrl-C (docs/cli.md).

Examples:
  $ agent-state watch
  $ agent-state watch --json | jq -c 'select(.kind == "forbidden")'`,
    )
    .run<{ settle: string }>(async (ctx, _args, flags) => {
      const settleMs = Number(flags.settle);
      if (!Number.isInteger(settleMs) || settleMs < 0 || settleMs > 10_000)
        throw new UsageError(`--settle ${flags.settle}: not a number of milliseconds`, {
          hint: 'use a whole number from 0 to 10000',
        });
      const line = (value: unknown) => void ctx.io.stdout.write(`${safeJson(value)}\n`);
      const { style } = ctx.out;
      const { watchState } = await import('../../watch/watch.js');
      const handle = await watchState({
        ...ctx,
        settleMs,
        onEvent: (event) =>
          ctx.out.json
            ? line({ type: 'change', ...event })
            : ctx.out.print(eventText(event, style)),
        onError: (error) =>
          ctx.out.json
            ? line({ type: 'error', message: error.message })
            : ctx.out.warn(formatWarning({ file: 'watch', message: error.message })),
      });
      const interrupted = untilInterrupted();
      const ready = await handle.ready;
      if (ctx.out.json) line({ type: 'ready', ...ready });
      else {
        ctx.out.print(
          `Watching ${ready.paths.join(', ')} (ready in ${ready.ms} ms). Press Ctrl-C to stop.`,
        );
        for (const note of ready.notes) ctx.out.print(style.dim(`note: ${note}`));
      }
      await interrupted;
      const summary = await handle.close();
      if (ctx.out.json) line({ type: 'summary', ...summary });
      else ctx.out.print(summaryText(summary));
    });
}
