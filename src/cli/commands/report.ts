// `agent-state report --html FILE`: the page of `agent-state ui` as one self-contained file.
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';

interface ReportFlags {
  html?: string;
  events?: string;
}

export function registerReport(program: AgentCommand): void {
  program
    .command('report')
    .description('write the task state as one self-contained HTML page (no server, no network)')
    .option('--html <file>', 'the file to write')
    .option('--events <n>', 'how many of the newest events the timeline holds', '500')
    .helpAfter(
      `
The report is the page \`agent-state ui\` serves, frozen: the same sections, its style and script
inline, and a Content-Security-Policy that lets it reach no network. Attach it to a pull request,
keep it as a CI artifact, or send it with a bug report. Links to raw artifacts are relative to
the file. The file is written atomically; nothing else is.

Examples:
  $ agent-state report --html agent-report.html
  $ agent-state report --html "$RUNNER_TEMP/agent-state.html" --events 2000 --json`,
    )
    .run<ReportFlags>(async (ctx, _args, flags) => {
      if (!flags.html)
        throw new UsageError('report needs --html FILE', {
          hint: 'for example: agent-state report --html report.html',
        });
      const raw = flags.events ?? '500';
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100_000)
        throw new UsageError(`--events ${raw} is not a number of events`, {
          hint: 'use a whole number from 1 to 100000',
        });
      const { writeHtmlReport } = await import('../../ui/write-report.js');
      const result = await writeHtmlReport({ ...ctx, file: flags.html, events: Number(raw) });
      return {
        text: `Wrote ${result.file} (${Math.ceil(result.bytes / 1024)} KB, ${result.events} events through #${result.seq}).`,
        json: result,
      };
    });
}
