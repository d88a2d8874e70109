// `agent-state check [ID...] [--allow-unverifiable]`: is each step done, and do its files still
// hash the same?
import type { AgentCommand } from '../agent-command.js';
import type { MarkerCheck } from '../../markers/check-markers.js';
import { type CommandContext } from '../action.js';
import { EXIT } from '../../error-report.js';
import { plural } from '../../text/plural.js';

/** One line per marker verdict. */
export function renderMarkerChecks(checks: readonly MarkerCheck[], ctx: CommandContext): string {
  if (checks.length === 0)
    return '(no completion markers yet: record one with `agent-state done ID --files ...`)';
  const { style } = ctx.out;
  const width = Math.max(...checks.map((c) => c.id.length));
  return checks
    .map((c) => {
      const id = c.id.padEnd(width);
      switch (c.state) {
        case 'valid':
          return `${style.green('valid')}         ${id}  ${plural(c.files, 'file')} unchanged`;
        case 'unverifiable':
          return `${style.yellow('unverifiable')}  ${id}  ${c.problem ? `${c.problem.what}: ${c.problem.fix}` : 'marked done, but no files were recorded to re-check'}`;
        case 'missing':
          return `${style.red('missing')}       ${id}  no completion marker${c.status ? ` (plan status: ${c.status})` : ' (no such plan item)'}`;
        case 'stale':
          return `${style.red('STALE')}         ${id}  ${c.changed.map((ch) => `${ch.path} ${ch.reason}`).join(', ')}`;
      }
    })
    .join('\n');
}

export function registerCheck(program: AgentCommand): void {
  program
    .command('check')
    .argument('[ids...]', 'plan item ids (default: every recorded marker)')
    .description('exit 0 when every id is done and its files still hash the same; 1 otherwise')
    .option(
      '--allow-unverifiable',
      'count a marker without files (unverifiable) as done: nothing re-checks it',
    )
    .helpAfter(
      `
States: valid, stale (a recorded file changed or disappeared), missing (no marker),
unverifiable (a marker without files, or whose file list is lost: not proven, so not done
unless --allow-unverifiable).

Examples:
  $ agent-state check t1 t2
  $ agent-state check t3 --json`,
    )
    .run<{ allowUnverifiable?: boolean }>(async (ctx, ids, flags) => {
      const { checkMarkers } = await import('../../markers/check-markers.js');
      const result = await checkMarkers({ ...ctx, ...flags, ids: ids.length ? ids : undefined });
      const json = {
        ok: result.ok,
        markers: result.markers.map((m) => ({
          id: m.id,
          state: m.state,
          changed: m.changed,
          status: m.status,
          at: m.at,
          files: m.files,
        })),
      };
      const stale = result.markers.filter((m) => m.state === 'stale');
      const hint = stale
        .map(
          (m) =>
            `\nRe-check ${m.id}: if it is still done, record its files again with \`agent-state done ${m.id} --refresh\`; otherwise redo the step.`,
        )
        .join('');
      return {
        text: renderMarkerChecks(result.markers, ctx) + hint,
        json,
        exitCode: result.ok ? EXIT.OK : EXIT.CHECK_FAILED,
      };
    });
}
