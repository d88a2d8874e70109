// `agent-state validate`: parse and schema-check every state file, listing every problem.
import type { Command } from 'commander';
import { AgentStateError, formatLocation, type SourceLocation } from '../../errors.js';
import { listAgentFiles } from '../../task/agents-overview.js';
import { readEvidenceFolder } from '../../evidence/evidence-folder.js';
import { findRoot } from '../../state/find-root.js';
import { agentProgressPath, displayPath } from '../../state/paths.js';
import { readAgentProgress, readConfig, readGoals, readProgress } from '../../state/store.js';
import type { Warning } from '../../types.js';
import { defineAction, formatWarning, type RunState } from '../action.js';
import { EXIT } from '../../error-report.js';

interface FileReport {
  file: string;
  ok: boolean;
  problems: { location: SourceLocation; message: string; hint: string }[];
  warnings: Warning[];
}

// Reading can itself fail (binary, empty, too big): that is a problem of the file, not a crash.
function check(
  file: string,
  read: () => { problems: FileReport['problems']; warnings: Warning[] },
): FileReport {
  try {
    const { problems, warnings } = read();
    return { file, ok: problems.length === 0, problems, warnings };
  } catch (error) {
    if (!(error instanceof AgentStateError) || error.code !== 'INVALID') throw error;
    return {
      file,
      ok: false,
      problems: [
        { location: error.location ?? { file }, message: error.message, hint: error.hint ?? '' },
      ],
      warnings: [],
    };
  }
}

export function registerValidate(program: Command, state: RunState): void {
  program
    .command('validate')
    .description('check every state file (syntax and schema); exit 2 when any is invalid')
    .addHelpText('after', '\nExamples:\n  $ agent-state validate\n  $ agent-state validate --json')
    .action(
      defineAction(state, (ctx) => {
        const paths = findRoot(ctx.cwd);
        const reports = [
          check(displayPath(paths, paths.config), () => readConfig(paths)),
          check(displayPath(paths, paths.goals), () => ({
            problems: [],
            warnings: readGoals(paths).warnings,
          })),
          check(displayPath(paths, paths.progress), () => readProgress(paths)),
          check(`${displayPath(paths, paths.evidenceDir)}/`, () => ({
            problems: readEvidenceFolder(paths).problems,
            warnings: [],
          })),
        ];
        const agents = listAgentFiles(paths);
        for (const name of agents.names)
          reports.push(
            check(displayPath(paths, agentProgressPath(paths, name)), () =>
              readAgentProgress(paths, name),
            ),
          );
        for (const name of agents.invalid) {
          const file = displayPath(paths, agentProgressPath(paths, name));
          reports.push({
            file,
            ok: false,
            problems: [
              {
                location: { file },
                message: `"${name}" is not a valid agent name, so no agent reads this file`,
                hint: 'rename the folder to lowercase letters, digits, dash or underscore (docs/multi-agent.md)',
              },
            ],
            warnings: [],
          });
        }
        const ok = reports.every((r) => r.ok);
        const { style } = ctx.out;
        const lines: string[] = [];
        for (const report of reports) {
          if (report.ok && report.warnings.length === 0)
            lines.push(`${style.green('ok')}       ${report.file}`);
          for (const p of report.problems)
            lines.push(
              `${style.red('invalid')}  ${formatLocation(p.location)}: ${p.message}${p.hint ? ` (fix: ${p.hint})` : ''}`,
            );
          for (const w of report.warnings)
            lines.push(`${style.yellow('warning')}  ${formatWarning(w)}`);
        }
        const problems = reports.reduce((n, r) => n + r.problems.length, 0);
        lines.push(
          ok
            ? 'All state files are valid.'
            : `${problems} problem${problems === 1 ? '' : 's'} found; the files were not changed.`,
        );
        const json = {
          ok,
          files: reports.map((r) => ({
            file: r.file,
            ok: r.ok,
            problems: r.problems.map((p) => ({
              at: formatLocation(p.location),
              ...p.location,
              message: p.message,
              hint: p.hint,
            })),
            warnings: r.warnings,
          })),
        };
        return { text: lines.join('\n'), json, exitCode: ok ? EXIT.OK : EXIT.USAGE };
      }),
    );
}
