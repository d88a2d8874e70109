// `agent-state checkpoint`: verify, run the tests, record fingerprint + stamp + evidence, or refuse.
import type { AgentCommand } from '../agent-command.js';
import type { CheckpointPhase, CheckpointResult } from '../../checkpoint/checkpoint.js';
import type { Warning } from '../../types.js';
import { type CommandContext } from '../action.js';
import { EXIT } from '../../error-report.js';
import { redactValue } from '../../text/redact.js';
import { plural } from '../../text/plural.js';
import { recordFact } from '../record.js';
import { relevantWarnings, renderFindings } from '../render-findings.js';
import { startSpinner } from '../spinner.js';

interface CheckpointFlags {
  message?: string;
  next?: string;
  stage?: string;
  test?: boolean;
  allowFailing?: boolean;
  commit?: boolean;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

const PHASE_TEXT: Record<CheckpointPhase, string> = {
  verify: 'verifying the state',
  test: 'running the tests',
  fingerprint: 'fingerprinting the tree',
  write: 'recording the checkpoint',
  commit: 'committing .agent/state',
};

export function registerCheckpoint(program: AgentCommand): void {
  program
    .command('checkpoint')
    .description(
      'verify, run the test command, then record fingerprint, stamp and evidence atomically (or refuse and write nothing)',
    )
    .option('-m, --message <summary>', 'one line for the evidence entry')
    .option('--next <text>', 'set the next action in the same step')
    .option('--stage <name>', 'set the stage in the same step')
    .option('--no-test', 'do not run the configured test command')
    .option('--allow-failing', 'record the checkpoint even when the tests fail')
    .option('--commit', 'then commit .agent/state (and config.yaml) with a conventional message')
    .helpAfter(
      `
Refuses (exit 1, nothing written) when a completion marker is stale, a staged, modified or
untracked file is in a Forbidden zone, or the tests fail. Ctrl-C stops the tests (the whole
process tree) and writes nothing (exit 130). Test output goes to .agent/artifacts/.

Examples:
  $ agent-state checkpoint -m "Token refresh works" --next "Add the logout endpoint"
  $ agent-state checkpoint --no-test --stage review --commit`,
    )
    .run<CheckpointFlags>(async (ctx, _args, flags) => {
      const { checkpoint } = await import('../../checkpoint/checkpoint.js');
      const { describeTest } = await import('../../checkpoint/checkpoint-evidence.js');
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      for (const signal of SIGNALS) process.on(signal, onSignal);
      const shown = !ctx.out.json && !ctx.out.quiet;
      const spinner = startSpinner(ctx.io.stderr, PHASE_TEXT.verify, shown);
      let result;
      try {
        result = await checkpoint({
          ...ctx,
          ...flags,
          summary: flags.message,
          signal: controller.signal,
          onPhase: (phase, detail) =>
            spinner.update(detail ? `${PHASE_TEXT[phase]} (${detail})` : PHASE_TEXT[phase]),
        });
      } finally {
        spinner.stop();
        for (const signal of SIGNALS) process.off(signal, onSignal);
      }
      const { style } = ctx.out;
      const lines: string[] = [];
      const refused = (why: string) =>
        style.red(`Checkpoint refused: ${why}. Nothing was written.`);
      if (result.refused === 'verify') {
        lines.push(refused('the state does not match the tree'));
        lines.push(...renderFindings(result.findings, ctx));
      } else if (result.refused === 'tests' && result.test) {
        lines.push(refused(`the tests ${describeTest(result.test)}`));
        lines.push(`Log: ${result.test.log.path}`, style.dim(result.test.tail));
        lines.push(`Fix the tests, or record anyway with --allow-failing.`);
      } else {
        const test = result.test ? `tests ${describeTest(result.test)}` : 'no tests run';
        lines.push(`${style.green('✓')} Checkpoint ${result.checkpoint} recorded (${test}).`);
        if (result.evidence) {
          const removed = result.evidence.removed.length
            ? `; ${plural(result.evidence.removed.length, 'old entry', 'old entries')} removed`
            : '';
          lines.push(`  evidence ${result.evidence.id}: ${result.evidence.file}${removed}`);
        }
        if (result.drift?.drifted) {
          const parts = [
            result.drift.head?.commits ? plural(result.drift.head.commits.length, 'commit') : '',
            result.drift.files.length ? plural(result.drift.files.length, 'file') + ' changed' : '',
          ].filter(Boolean);
          if (parts.length) lines.push(`  since the previous checkpoint: ${parts.join(', ')}`);
        }
        if (!result.progress_changed)
          lines.push(
            style.yellow(
              '  no progress since the previous checkpoint (plan, markers, next action unchanged)',
            ),
          );
        if (result.commit && 'sha' in result.commit)
          lines.push(`  committed ${result.commit.sha.slice(0, 7)}`);
        if (result.commit && 'error' in result.commit)
          lines.push(
            style.red(
              `  the checkpoint was recorded, but the commit failed: ${result.commit.error}`,
            ),
          );
      }
      const failedCommit = result.commit !== null && 'error' in result.commit;
      const facts = await recordCheckpointFacts(ctx, result, flags.message);
      return {
        text: lines.join('\n'),
        json: redactValue(result),
        warnings: [...relevantWarnings(result.warnings), ...facts],
        exitCode: result.ok && !failedCommit ? EXIT.OK : EXIT.CHECK_FAILED,
      };
    });
}

// The test run is a verification fact whether or not the checkpoint was recorded; the checkpoint
// itself only when it was.
async function recordCheckpointFacts(
  ctx: CommandContext,
  result: CheckpointResult,
  summary: string | undefined,
): Promise<Warning[]> {
  const { test, commit, fingerprint } = result;
  const tested = test
    ? await recordFact(ctx, {
        type: 'verification.finished',
        command: test.command,
        passed: test.passed,
        failed: test.failed,
        exit_code: test.passed === null && test.failed === null ? test.exit_code : null,
        artifact: test.log.path,
      })
    : [];
  const recorded = result.ok
    ? await recordFact(ctx, {
        type: 'checkpoint.created',
        summary: summary ?? `checkpoint ${result.checkpoint}`,
        evidence: result.evidence?.id ?? null,
        commit: commit && 'sha' in commit ? commit.sha : null,
        // Where the tree was: the commit to go back to when the state was not committed itself.
        head: fingerprint?.git?.head ?? null,
        branch: fingerprint?.git?.branch ?? null,
      })
    : [];
  return [...tested, ...recorded];
}
