// `agent-state validate`: parse and schema-check every state file, listing every problem.
import type { AgentCommand } from '../agent-command.js';
import { AgentStateError, formatLocation, type SourceLocation } from '../../errors.js';
import { listAgentFiles } from '../../task/agents-overview.js';
import { readEvidenceFolder } from '../../evidence/evidence-folder.js';
import { findRoot } from '../../state/find-root.js';
import { agentProgressPath, displayPath } from '../../state/paths.js';
import { readAgentProgress, readConfig, readGoals, readProgress } from '../../state/store.js';
import type { Warning } from '../../types.js';
import type { StateProblem } from '../../verify/read-state-checked.js';
import { formatWarning } from '../action.js';
import { EXIT } from '../../error-report.js';
import { plural } from '../../text/plural.js';
import { renderProblems } from '../render-findings.js';

type Problem = { location: SourceLocation; message: string; hint: string };

// One file's verdict, as --json prints it.
interface FileReport {
  file: string;
  ok: boolean;
  problems: StateProblem[];
  warnings: Warning[];
}

// Reading can itself fail (binary, empty, too big): that is a problem of the file, not a crash.
function check(file: string, read: () => { problems: Problem[]; warnings: Warning[] }): FileReport {
  let found: { problems: Problem[]; warnings: Warning[] };
  try {
    found = read();
  } catch (error) {
    if (!(error instanceof AgentStateError) || error.code !== 'INVALID') throw error;
    const problem = { location: error.location ?? { file }, message: error.message };
    found = { problems: [{ ...problem, hint: error.hint ?? '' }], warnings: [] };
  }
  const problems = found.problems.map(({ location, message, hint }) => ({
    at: formatLocation(location),
    ...location,
    message,
    hint,
  }));
  return { file, ok: problems.length === 0, problems, warnings: found.warnings };
}

export function registerValidate(program: AgentCommand): void {
  program
    .command('validate')
    .description('check every state file (syntax and schema); exit 2 when any is invalid')
    .helpAfter('\nExamples:\n  $ agent-state validate\n  $ agent-state validate --json')
    .run((ctx) => {
      const paths = findRoot(ctx.cwd);
      const goals = () => ({ problems: [], warnings: readGoals(paths).warnings });
      const evidence = () => ({ problems: readEvidenceFolder(paths).problems, warnings: [] });
      const reports = [
        check(displayPath(paths, paths.config), () => readConfig(paths)),
        check(displayPath(paths, paths.goals), goals),
        check(displayPath(paths, paths.progress), () => readProgress(paths)),
        check(`${displayPath(paths, paths.evidenceDir)}/`, evidence),
      ];
      const agents = listAgentFiles(paths);
      const agentFile = (name: string) => displayPath(paths, agentProgressPath(paths, name));
      for (const name of agents.names)
        reports.push(check(agentFile(name), () => readAgentProgress(paths, name)));
      for (const name of agents.invalid) {
        const problem = {
          location: { file: agentFile(name) },
          message: `"${name}" is not a valid agent name, so no agent reads this file`,
          hint: 'rename the folder to lowercase letters, digits, dash or underscore (docs/multi-agent.md)',
        };
        reports.push(check(agentFile(name), () => ({ problems: [problem], warnings: [] })));
      }
      const ok = reports.every((r) => r.ok);
      const { style } = ctx.out;
      const lines: string[] = [];
      for (const report of reports) {
        if (report.ok && report.warnings.length === 0)
          lines.push(`${style.green('ok')}       ${report.file}`);
        lines.push(...renderProblems(report.problems, ctx));
        for (const w of report.warnings)
          lines.push(`${style.yellow('warning')}  ${formatWarning(w)}`);
      }
      const problems = reports.reduce((n, r) => n + r.problems.length, 0);
      lines.push(
        ok
          ? 'All state files are valid.'
          : `${plural(problems, 'problem')} found; the files were not changed.`,
      );
      return {
        text: lines.join('\n'),
        json: { ok, files: reports },
        exitCode: ok ? EXIT.OK : EXIT.USAGE,
      };
    });
}
