// `agent-state doctor`: is the installation wired up end to end? Lists every check with what to
// fix; exit 1 when one failed.
import type { AgentCommand } from '../agent-command.js';
import type { CheckStatus } from '../../hosts/doctor.js';
import { EXIT } from '../../error-report.js';
import { plural } from '../../text/plural.js';

export function registerDoctor(program: AgentCommand): void {
  program
    .command('doctor')
    .description(
      'check the installation: binary, host hooks, state files, git hooks; say what to fix',
    )
    .helpAfter(
      `
Exit 0 when nothing failed (warnings allowed), 1 otherwise.

Examples:
  $ agent-state doctor
  $ agent-state doctor --json | jq '.checks[] | select(.status != "ok")'`,
    )
    .run(async (ctx) => {
      const { runDoctor } = await import('../../hosts/doctor.js');
      const result = await runDoctor(ctx);
      const { style } = ctx.out;
      const mark: Record<CheckStatus, string> = {
        ok: style.green('ok  '),
        warn: style.yellow('warn'),
        fail: style.red('FAIL'),
        skip: style.dim('skip'),
      };
      const lines = result.checks.flatMap((c) => [
        `${mark[c.status]}  ${c.name}: ${c.message}`,
        ...(c.fix ? [`      fix: ${c.fix}`] : []),
      ]);
      const warned = result.checks.filter((c) => c.status === 'warn').length;
      lines.push(
        !result.ok
          ? style.red('some checks failed')
          : warned > 0
            ? style.yellow(`nothing failed; ${plural(warned, 'warning')} above`)
            : style.green('all good'),
      );
      return {
        text: lines.join('\n'),
        json: result,
        exitCode: result.ok ? EXIT.OK : EXIT.CHECK_FAILED,
      };
    });
}
