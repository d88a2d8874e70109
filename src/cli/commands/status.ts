// `agent-state status`: the task at a glance, and the status bar for a model
// (`--format text|xml|markdown|json`, `--publish append|replace|delta`).
import { UsageError } from '../../errors.js';
import { DEFAULT_CONSUMER } from '../../events/cursor-store.js';
import { PUBLISH_STRATEGIES, type PublishStrategy } from '../../events/publish.js';
import { readStatus, type ReadStatusResult } from '../../status/read-status.js';
import { publishStatusTo } from '../../status/publish-to.js';
import { renderStatus, STATUS_FORMATS, type StatusFormat } from '../../events/render.js';
import { ageText, sectionLines } from '../../events/render-lines.js';
import type { StatusSections } from '../../events/sections.js';
import type { AgentsOverview } from '../../task/agents-overview.js';
import { describeClaim } from '../../task/claims.js';
import { countPlan, readyItems, readyLine } from '../../state/plan.js';
import { readStashed, type StashedChange } from '../../git/history.js';
import { COMMITTED_STATE_PATHS } from '../../state/paths.js';
import { stashAdvice } from '../../boot/recovery-sections.js';
import { PLAN_STATUSES } from '../../types.js';
import { printResult, type CommandContext, type CommandResult } from '../action.js';
import { option, type LeanCommand } from '../parse-args.js';
import { ago } from '../../boot/model.js';
import { plural } from '../../text/plural.js';

// Seconds since an ISO time, or null.
function ageSeconds(fromIso: string | null | undefined, now: Date): number | null {
  if (!fromIso) return null;
  return Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
}

interface StatusFlags {
  format?: string;
  publish?: string;
  consumer?: string;
  reset?: boolean;
  all?: boolean;
}

// The lines of `status --all`: one per agent across the worktrees, then the claims.
function agentLines(ctx: CommandContext, overview: AgentsOverview): string[] {
  const { style } = ctx.out;
  const now = ctx.now();
  const trees = overview.worktrees.filter((w) => w.state !== 'none');
  const lines = [
    style.bold(
      `Agents (${plural(overview.agents.length, 'agent')} in ${plural(trees.length, 'worktree')})`,
    ),
  ];
  if (overview.agents.length === 0) lines.push('  (none has recorded anything yet)');
  const width = Math.max(9, ...overview.agents.map((a) => (a.agent ?? '(default)').length));
  for (const a of overview.agents) {
    const name = (a.agent ?? '(default)').padEnd(width);
    const where = `${a.worktree}${a.branch ? ` (${a.branch})` : ''}${a.here ? ' [here]' : ''}`;
    const parts = [`next: ${a.next_action ?? '-'}`];
    if (a.current_step)
      parts.push(`step ${[a.current_step.id, a.current_step.objective].filter(Boolean).join(' ')}`);
    if (a.claims.length)
      parts.push(
        `claims ${a.claims.map((c) => `${c.item}${c.expired ? ' (expired)' : ''}`).join(', ')}`,
      );
    parts.push(`seen ${ago(a.last_seen, now)}`);
    const state = a.active ? style.green('active') : style.dim('idle  ');
    lines.push(
      `  ${name}  ${state}  ${where}`,
      `  ${' '.repeat(width)}          ${parts.join(' · ')}`,
    );
  }
  const claims = overview.agents.flatMap((a) => a.claims);
  if (claims.length) {
    lines.push(style.bold('Claims'));
    for (const claim of claims) lines.push(`  ${claim.item}  ${describeClaim(claim, now)}`);
  }
  for (const w of overview.worktrees.filter((t) => t.state === 'invalid'))
    lines.push(
      style.yellow(
        `warning: ${w.path}: ${w.problem ?? 'invalid state'} (run \`agent-state validate\` there)`,
      ),
    );
  return lines;
}

// What the events add to the overview (the task lines above come from the state files).
const OVERVIEW_SECTIONS = [
  ['environment', 'Where'],
  ['tools', 'Tools'],
  ['budget', 'Budget'],
  ['permissions', 'Asked'],
] as const;

// The tests as the last checkpoint recorded them, then a later run no checkpoint recorded (a
// refused checkpoint's, or one reported by a host): the latest run is not the recorded result.
function testLines(status: ReadStatusResult, nowIso: string): string[] {
  const last = status.state.progress.stamp?.last_test;
  const { verification: run, checkpoint } = status.snapshot;
  const later = run !== null && (checkpoint === null || run.seq > checkpoint.seq);
  const lines: string[] = [];
  if (last) {
    const counted = typeof last.passed === 'number' || typeof last.failed === 'number';
    const recorded = sectionLines(
      'verification',
      {
        verification: {
          ...(counted
            ? { passed: last.passed ?? 0, failed: last.failed ?? 0 }
            : { exit_code: last.exit_code ?? undefined }),
          command: last.command,
        },
      } as StatusSections,
      nowIso,
    );
    for (const line of recorded)
      lines.push(`${line.text} at the last checkpoint, ${ageText(last.at, nowIso)}`);
  }
  if (later || !last)
    for (const line of sectionLines('verification', status.view.sections, nowIso))
      lines.push(`${line.text}${last ? ' since then' : ''}, in a run no checkpoint recorded`);
  return lines;
}

function checkFlags(flags: StatusFlags): { format?: StatusFormat; publish?: PublishStrategy } {
  const choices = [
    ['format', STATUS_FORMATS, 'xml'],
    ['publish', PUBLISH_STRATEGIES, 'delta --consumer claude'],
  ] as const;
  for (const [name, allowed, example] of choices) {
    const value = flags[name];
    if (value !== undefined && !(allowed as readonly string[]).includes(value))
      throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`, {
        hint: `for example --${name} ${example}`,
      });
  }
  if (flags.all && (flags.format !== undefined || flags.publish !== undefined))
    throw new UsageError('--all lists the agents; it does not combine with --format or --publish', {
      hint: 'run `agent-state status --all` on its own',
    });
  if (flags.publish === undefined && (flags.consumer !== undefined || flags.reset))
    throw new UsageError('--consumer and --reset only apply with --publish', {
      hint: 'add --publish append|replace|delta',
    });
  return flags as { format?: StatusFormat; publish?: PublishStrategy };
}

// The overview for people: the task lines, then what the events say (cwd, tools, tests, ...).
function overview(
  ctx: CommandContext,
  status: ReadStatusResult,
  stashed: readonly StashedChange[],
): CommandResult {
  const { paths, goals, progress, warnings } = status.state;
  const now = ctx.now();
  const counts = countPlan(progress.plan);
  const ready = readyItems(progress.plan);
  const stamp = progress.stamp ?? {};
  const current = progress.current_step;
  const json = {
    root: paths.root,
    anchor: goals.anchor,
    stage: progress.stage ?? '',
    next_action: progress.next_action ?? '',
    current_step: current ?? null,
    plan: counts,
    ready: ready.map(({ id, title }) => ({ id, title })),
    revision: progress.revision,
    checkpoints: stamp.checkpoints ?? 0,
    last_checkpoint: stamp.last_checkpoint ?? null,
    checkpoint_age_seconds: ageSeconds(stamp.last_checkpoint, now),
    // This worktree's counters (.agent/log/recovery.json).
    boots: status.recovery.boots,
    compactions: status.recovery.compactions,
  };
  const { style } = ctx.out;
  const byStatus = PLAN_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  const lines = [
    `${style.bold('Goal')}   ${goals.anchor || style.yellow('(none: run `agent-state goal "..."`)')}`,
    `${style.bold('Stage')}  ${json.stage || '-'}`,
    `${style.bold('Next')}   ${json.next_action || style.yellow('(none: run `agent-state next "..."`)')}`,
  ];
  if (current && (current.id || current.objective))
    lines.push(
      `${style.bold('Step')}   ${[current.id, current.objective].filter(Boolean).join(' ')}`,
    );
  lines.push(
    `${style.bold('Plan')}   ${counts.total === 0 ? 'empty' : `${plural(counts.total, 'item')}: ${byStatus.join(', ')}`}`,
  );
  if (ready.length) lines.push(`${style.bold('Ready')}  ${readyLine(ready)}`);
  lines.push(
    `${style.bold('Saved')}  last checkpoint ${ago(stamp.last_checkpoint, now)} (${plural(json.checkpoints, 'checkpoint')}), ${plural(json.boots, 'boot')}, revision ${progress.revision}`,
  );
  const { sections, generated_at: nowIso } = status.view;
  lines.push(...testLines(status, nowIso).map((text) => `${style.bold('Tests')}  ${text}`));
  for (const [name, label] of OVERVIEW_SECTIONS)
    for (const line of sectionLines(name, sections, nowIso))
      lines.push(`${style.bold(label.padEnd(6))} ${line.text}`);
  for (const signal of status.signals) {
    const mark = signal.level === 'stop' ? style.red('[stop]') : style.yellow('[warn]');
    lines.push(`${mark} ${signal.message}`);
  }
  if (stashed.length) lines.push(`${style.yellow('[warn]')} ${stashAdvice(stashed)}`);
  return {
    text: lines.join('\n'),
    json: {
      ...json,
      events_seq: status.view.seq,
      sections,
      signals: status.signals,
      stashed,
      warnings,
    },
    warnings: [...warnings.filter((w) => /anchor/.test(w.message)), ...status.warnings],
  };
}

async function publish(
  status: ReadStatusResult,
  strategy: PublishStrategy,
  format: StatusFormat,
  flags: StatusFlags,
): Promise<CommandResult> {
  const { consumer, reset } = flags;
  const result = await publishStatusTo({ strategy, format, consumer, reset, status });
  return {
    text: result.output ?? '',
    json: {
      published: result.output !== null,
      kind: result.kind,
      strategy,
      consumer: result.consumer,
      format,
      epoch: result.epoch,
      new_epoch: result.newEpoch,
      seq: status.view.seq,
      changed: result.diff ? [...result.diff.added, ...result.diff.changed] : [],
      removed: result.diff?.removed ?? [],
      output: result.output,
    },
    warnings: status.warnings,
  };
}

// A lean command (lean.ts): agents and scripts poll it, and the commander route cost it ~8 ms.
export const statusCommand: LeanCommand = {
  spec: {
    name: 'status',
    description: 'show the task at a glance, or the status bar for a model (--format, --publish)',
    options: [
      option('--format <format>', `render the status bar: ${STATUS_FORMATS.join(', ')}`),
      option(
        '--publish <strategy>',
        'print only what a consumer has not seen: append, replace or delta (nothing when nothing changed)',
      ),
      option('--consumer <name>', `whose publish cursor to use (default "${DEFAULT_CONSUMER}")`),
      option('--reset', 'start a new epoch: publish a full baseline'),
      option(
        '--all',
        "every agent across the repository's worktrees: next action, step, claims, last seen",
      ),
    ],
    help: `
Examples:
  $ agent-state status
  $ agent-state status --json | jq .next_action
  $ agent-state status --format xml
  $ agent-state status --publish delta --consumer claude
  $ agent-state status --publish replace --format markdown
  $ agent-state status --all`,
  },

  async run(parsed, ctx) {
    return printResult(ctx, await statusResult(ctx, parsed.options as StatusFlags));
  },
};

async function statusResult(ctx: CommandContext, flags: StatusFlags): Promise<CommandResult> {
  const { format, publish: strategy } = checkFlags(flags);
  const status = await readStatus(ctx);
  if (strategy) return publish(status, strategy, format ?? 'xml', flags);
  const stashed = status.gitRoot
    ? readStashed(status.state.paths.root, status.gitRoot, COMMITTED_STATE_PATHS, ctx.env)
    : [];
  const result = overview(ctx, status, stashed);
  if (flags.all) {
    const { agentsOverview } = await import('../../task/agents-overview.js');
    const all = agentsOverview({ paths: status.state.paths, env: ctx.env, now: ctx.now() });
    return {
      ...result,
      text: [result.text, '', ...agentLines(ctx, all)].join('\n'),
      json: { ...(result.json as object), agent: status.state.agent, ...all },
    };
  }
  if (!format) return result;
  const output = renderStatus(status.view, format);
  return { ...result, text: output, json: { ...(result.json as object), format, output } };
}
