// `agent-state verify`: does the state agree with the tree? Exit 0 yes, 1 findings, 2 invalid files.
import type { AgentCommand } from '../agent-command.js';
import { EXIT } from '../../error-report.js';
import { redactValue } from '../../text/redact.js';
import { plural } from '../../text/plural.js';
import { relevantWarnings, renderFindings, renderProblems, sinceText } from '../render-findings.js';

export function registerVerify(program: AgentCommand): void {
  program
    .command('verify')
    .description(
      'check the state against the tree: files valid, markers fresh, no forbidden change, no drift since the checkpoint',
    )
    .helpAfter(
      `
Exit codes: 0 the state matches the tree, 1 findings (each with its fix), 2 a state file is invalid.

Examples:
  $ agent-state verify
  $ agent-state verify --json | jq '.findings[].message'`,
    )
    .run(async (ctx) => {
      const { verify } = await import('../../verify/verify.js');
      const report = await verify(ctx);
      const { style } = ctx.out;
      // Commit subjects and paths are anyone's text: no secret in them reaches the output.
      const shown = { json: redactValue(report), warnings: relevantWarnings(report.warnings) };
      if (report.problems.length > 0) {
        const lines = [
          ...renderProblems(report.problems, ctx),
          `${plural(report.problems.length, 'problem')} in the state files; nothing else was checked and no file was changed.`,
        ];
        return { ...shown, text: lines.join('\n'), exitCode: EXIT.USAGE };
      }
      const lines: string[] = [];
      const valid = report.markers.filter((m) => m.state === 'valid').length;
      const unchecked = report.markers.filter(
        (m) => m.state === 'unverifiable' && !m.problem,
      ).length;
      lines.push(`${style.green('✓')} state files valid`);
      if (report.markers.length > 0 && valid + unchecked === report.markers.length)
        lines.push(
          `${style.green('✓')} ${plural(valid, 'completion marker')} still valid${unchecked ? ` (${unchecked} more without files: nothing to re-check)` : ''}`,
        );
      if (!report.findings.some((f) => f.kind === 'forbidden'))
        lines.push(`${style.green('✓')} no change in a forbidden zone`);
      if (report.drift === null)
        lines.push(`${style.dim('-')} no checkpoint yet: nothing to compare the tree with`);
      else if (!report.drift.drifted)
        lines.push(
          `${style.green('✓')} no drift since ${sinceText(report.last_checkpoint, ctx.now())}`,
        );
      lines.push(...renderFindings(report.findings, ctx));
      lines.push(
        report.ok
          ? 'The state matches the tree.'
          : `${plural(report.findings.length, 'finding')}${report.drift?.drifted ? ` (drift since ${sinceText(report.last_checkpoint, ctx.now())})` : ''}.`,
      );
      return {
        ...shown,
        text: lines.join('\n'),
        exitCode: report.ok ? EXIT.OK : EXIT.CHECK_FAILED,
      };
    });
}
