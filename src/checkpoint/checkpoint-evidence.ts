// The evidence entry a checkpoint writes (pure): its summary line and a short Markdown body with
// the test result, the plan, and what changed since the previous checkpoint.
import type { EvidenceInput } from '../evidence/add-evidence.js';
import { describeChange, type Drift } from '../fingerprint/diff.js';
import { countPlan } from '../state/plan.js';
import type { Fingerprint, Progress } from '../types.js';
import type { TestRun } from './run-tests.js';
import { plural } from '../text/plural.js';

/** "passed (12 passed, 0 failed)", "FAILED with exit 1", "timed out". */
export function describeTest(test: TestRun): string {
  const verdict = test.timed_out
    ? 'timed out'
    : test.ok
      ? 'passed'
      : test.exit_code === null
        ? `was killed (${test.signal ?? 'signal'})`
        : `failed (exit ${test.exit_code})`;
  const counts = test.passed === null ? '' : ` — ${test.passed} passed, ${test.failed ?? 0} failed`;
  return `${verdict}${counts}`;
}

/** The entry for checkpoint number `n`. */
export function checkpointEvidence(input: {
  n: number;
  summary: string | undefined;
  progress: Progress;
  test: TestRun | null;
  drift: Drift | null;
  fingerprint: Fingerprint;
  /** Forbidden paths changed by commits that this checkpoint accepts (a person approved them). */
  accepted?: readonly string[];
}): EvidenceInput {
  const { n, progress, test, drift, fingerprint } = input;
  const testLine = test ? `tests ${describeTest(test)}` : 'no tests run';
  const summary = input.summary?.trim() || `Checkpoint ${n}: ${testLine}`;
  const counts = countPlan(progress.plan);
  const plan = (['done', 'running', 'blocked', 'failed', 'pending', 'skipped'] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
  const ran =
    test &&
    `\`${test.command}\` ${describeTest(test)} in ${(test.duration_ms / 1000).toFixed(1)} s (log: ${test.log.path})`;
  const lines = [`Checkpoint ${n}:`, '', `- Tests: ${ran || 'none run'}`];
  lines.push(`- Plan: ${plan || 'empty'}`);
  if (progress.stage) lines.push(`- Stage: ${progress.stage}`);
  if (progress.next_action) lines.push(`- Next: ${progress.next_action}`);
  if (fingerprint.git)
    lines.push(
      `- HEAD: ${fingerprint.git.head?.slice(0, 12) ?? '(no commits)'} on ${fingerprint.git.branch ?? '(detached)'}, ${Object.keys(fingerprint.dirty).length} dirty and ${Object.keys(fingerprint.untracked).length} untracked files`,
    );
  if (drift?.drifted) {
    lines.push('- Since the previous checkpoint:');
    const commits = drift.head?.commits?.length;
    if (commits !== undefined) lines.push(`  - ${plural(commits, 'new commit')}`);
    if (drift.branch)
      lines.push(
        `  - branch ${drift.branch.from ?? '(detached)'} → ${drift.branch.to ?? '(detached)'}`,
      );
    if (drift.files.length > 0) {
      const shown = drift.files.slice(0, 20).map((f) => `${f.path} (${describeChange(f)})`);
      const more = drift.files.length > 20 ? ` and ${drift.files.length - 20} more` : '';
      lines.push(`  - files: ${shown.join(', ')}${more}`);
    }
    if (drift.key_files.length > 0)
      lines.push(`  - key files: ${drift.key_files.map((f) => f.path).join(', ')}`);
  }
  // Named, so that the acceptance is on record (and a revert of it is known for what it is).
  if (input.accepted?.length) {
    const named = input.accepted.map((path) => {
      const commits = (drift?.head?.commits ?? []).filter((c) => c.files.includes(path));
      const by = commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`).join(', ');
      return by ? `${path} (${by})` : path;
    });
    lines.push(`- Forbidden paths changed by commits and accepted: ${named.join(', ')}`);
  }
  if (test && !test.ok) lines.push('', '```', test.tail, '```');
  const [refs, redactionsInRefs] = test ? [[test.log], test.redactions] : [[], 0];
  return { kind: 'checkpoint', summary, body: lines.join('\n'), refs, redactionsInRefs };
}
