// Human renderings of verify findings and drift, shared by `verify` and `checkpoint`.
import { redactSecrets } from '../text/redact.js';
import { safeText } from '../text/safe-text.js';
import type { Warning } from '../types.js';
import type { VerifyFinding } from '../verify/findings.js';
import type { StateProblem } from '../verify/read-state-checked.js';
import type { CommandContext } from './action.js';
import { ago } from '../boot/model.js';

// A finding names paths and commit subjects: whatever they hold, it stays on its line.
const oneLine = (text: string) => safeText(redactSecrets(text).text, { oneLine: true });

/** Each finding on its own line, with its fix indented below. */
export function renderFindings(findings: readonly VerifyFinding[], ctx: CommandContext): string[] {
  const { style } = ctx.out;
  const label: Record<VerifyFinding['kind'], string> = {
    stale_marker: 'stale',
    forbidden: 'forbidden',
    drift: 'drift',
  };
  return findings.flatMap((f) => [
    `${style.red('✗')} ${style.bold(label[f.kind])}  ${oneLine(f.message)}`,
    `    ${style.dim('fix:')} ${oneLine(f.fix)}`,
  ]);
}

/** State-file problems, `file:line:col: message (fix: ...)`. */
export function renderProblems(problems: readonly StateProblem[], ctx: CommandContext): string[] {
  return problems.map(
    (p) =>
      `${ctx.out.style.red('invalid')}  ${p.at}: ${p.message}${p.hint ? ` (fix: ${p.hint})` : ''}`,
  );
}

/** "since the checkpoint of 2026-01-31 12:00 (5m ago)". */
export function sinceText(at: string | null, now: Date): string {
  return at
    ? `the checkpoint of ${at.slice(0, 16).replace('T', ' ')} UTC (${ago(at, now)})`
    : 'no checkpoint yet';
}

/** The warnings worth printing next to a verify report: goals.md's empty-section notes belong to `validate`. */
export function relevantWarnings(warnings: readonly Warning[]): Warning[] {
  return warnings.filter((w) => !w.file.endsWith('goals.md') || /anchor/.test(w.message));
}
