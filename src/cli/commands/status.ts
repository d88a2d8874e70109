// `agent-state status`: the task at a glance.
import type { Command } from 'commander';
import { countPlan } from '../../state/plan.js';
import { loadState } from '../../state/store.js';
import { PLAN_STATUSES } from '../../types.js';
import { defineAction, type RunState } from '../action.js';
import { ageSeconds, formatAge, plural } from '../format.js';

export function registerStatus(program: Command, state: RunState): void {
  program
    .command('status')
    .description('show the goal, stage, next action, plan counts, last checkpoint and boots')
    .addHelpText(
      'after',
      '\nExamples:\n  $ agent-state status\n  $ agent-state status --json | jq .next_action',
    )
    .action(
      defineAction(state, (ctx) => {
        const { paths, goals, progress, warnings } = loadState({ cwd: ctx.cwd });
        const now = ctx.now();
        const counts = countPlan(progress.plan);
        const stamp = progress.stamp ?? {};
        const current = progress.current_step;
        const json = {
          root: paths.root,
          anchor: goals.anchor,
          stage: progress.stage ?? '',
          next_action: progress.next_action ?? '',
          current_step: current ?? null,
          plan: counts,
          revision: progress.revision,
          checkpoints: stamp.checkpoints ?? 0,
          last_checkpoint: stamp.last_checkpoint ?? null,
          checkpoint_age_seconds: ageSeconds(stamp.last_checkpoint, now),
          boots: stamp.boots ?? 0,
        };
        const { style } = ctx.out;
        const byStatus = PLAN_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
        const lines = [
          `${style.bold('Goal')}   ${goals.anchor || style.yellow('(none: run `agent-state goal "..."`)')}`,
          `${style.bold('Stage')}  ${json.stage || '-'}`,
          `${style.bold('Next')}   ${json.next_action || style.yellow('(none: run `agent-state next "..."`)')}`,
        ];
        if (current && (current.id || current.objective)) {
          lines.push(
            `${style.bold('Step')}   ${[current.id, current.objective].filter(Boolean).join(' ')}`,
          );
        }
        lines.push(
          `${style.bold('Plan')}   ${counts.total === 0 ? 'empty' : `${plural(counts.total, 'item')}: ${byStatus.join(', ')}`}`,
          `${style.bold('Saved')}  last checkpoint ${formatAge(stamp.last_checkpoint, now)} (${plural(json.checkpoints, 'checkpoint')}), ${plural(json.boots, 'boot')}, revision ${progress.revision}`,
        );
        return {
          text: lines.join('\n'),
          json: { ...json, warnings },
          warnings: warnings.filter((w) => /anchor/.test(w.message)),
        };
      }),
    );
}
