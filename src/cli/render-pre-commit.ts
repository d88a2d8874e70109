// How `hook pre-commit` reports: nothing when all is well, otherwise a report that names the
// hook, each rule and its fix. Pure: a result in, lines out (styled by the caller's paint).
import { formatLocation } from '../errors.js';
import type { PreCommitResult } from '../git-hooks/pre-commit-hook.js';
import type { HookFinding } from '../verify/staged-check.js';
import type { Style } from './output.js';
import { safeText } from '../text/safe-text.js';
import { plural } from '../text/plural.js';

/** The few styles the report uses (a Style from output.ts, or chalk). */
export type Paint = Pick<Style, 'red' | 'yellow' | 'bold' | 'dim'>;

const HOOK = 'agent-state pre-commit hook';

/** How to commit past the hook. */
export const SKIP_LINE =
  'To skip every agent-state check for one commit: AGENT_STATE=0 git commit ...';

const LABEL: Record<HookFinding['kind'], string> = {
  'invalid-state': 'invalid',
  'state-warning': 'warning',
  'local-file': 'local file',
  forbidden: 'forbidden',
  'stale-marker': 'stale marker',
};

function findingLines(finding: HookFinding, paint: Paint): string[] {
  const color = finding.severity === 'block' ? paint.red : paint.yellow;
  const where = formatLocation({ file: finding.path, line: finding.line, column: finding.column });
  const tag =
    finding.severity === 'allowed'
      ? `${LABEL[finding.kind]} (allowed)`
      : finding.severity === 'warn' && finding.kind !== 'state-warning'
        ? `${LABEL[finding.kind]} (warning)`
        : LABEL[finding.kind];
  const lines = [`  ${color(tag)}  ${where}: ${finding.message}`];
  if (finding.rule) lines.push(`      rule: ${finding.rule} (.agent/state/goals.md, Forbidden)`);
  if (finding.hint) lines.push(`      fix:  ${finding.hint}`);
  return lines;
}

/** The report for stderr (made safe for the terminal); empty when there is nothing to say. */
export function renderPreCommit(result: PreCommitResult, paint: Paint): string[] {
  if (result.skipped !== null || result.findings.length === 0) return [];
  const blocking = result.findings.filter((f) => f.severity === 'block').length;
  const header = result.ok
    ? paint.yellow(`${HOOK}: ${plural(result.findings.length, 'note')}; the commit goes ahead`)
    : paint.red(paint.bold(`${HOOK}: commit blocked (${plural(blocking, 'problem')})`));
  const order = { block: 0, allowed: 1, warn: 2 } as const;
  const sorted = [...result.findings].sort((a, b) => order[a.severity] - order[b.severity]);
  const lines = [header, ...sorted.flatMap((f) => findingLines(f, paint))];
  if (!result.ok) lines.push(paint.dim(SKIP_LINE));
  const ownColors = paint.red('') !== '';
  return lines.map((line) => safeText(line, { ownColors, oneLine: true }));
}
