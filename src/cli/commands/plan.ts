// `agent-state plan ...`: add items, change their status, list them.
import type { Command } from 'commander';
import { PLAN_STATUS_ICONS, addPlanItem, countPlan, setPlanStatus } from '../../state/plan.js';
import { loadState, updateProgress } from '../../state/store.js';
import type { PlanItem, PlanStatus } from '../../types.js';
import { defineAction, type CommandContext, type RunState } from '../action.js';
import { recordFact } from '../record.js';

const TRANSITIONS: [verb: string, status: PlanStatus, description: string][] = [
  ['start', 'running', 'mark an item running (and make it the current step)'],
  ['block', 'blocked', 'mark an item blocked (say why with --note)'],
  ['skip', 'skipped', 'mark an item skipped'],
  ['fail', 'failed', 'mark an item failed'],
  ['reset', 'pending', 'put an item back to pending'],
];

/** One line per plan item, for humans. */
export function renderPlan(plan: readonly PlanItem[], ctx: CommandContext): string {
  if (plan.length === 0) return '(the plan is empty: add a step with `agent-state plan add "..."`)';
  const width = Math.max(...plan.map((p) => p.id.length));
  return plan
    .map((item) => {
      const icon = PLAN_STATUS_ICONS[item.status];
      const colored =
        item.status === 'done'
          ? ctx.out.style.green(icon)
          : item.status === 'running'
            ? ctx.out.style.cyan(icon)
            : item.status === 'blocked' || item.status === 'failed'
              ? ctx.out.style.red(icon)
              : icon;
      const deps = item.depends_on?.length
        ? ctx.out.style.dim(` (after ${item.depends_on.join(', ')})`)
        : '';
      const note = item.note ? ctx.out.style.dim(` — ${item.note}`) : '';
      return `${colored} ${item.id.padEnd(width)}  ${item.title}${deps}${note}`;
    })
    .join('\n');
}

export function registerPlan(program: Command, state: RunState): void {
  const plan = program
    .command('plan')
    .description('the plan: add steps, change their status, list them')
    .addHelpText(
      'after',
      '\nExamples:\n  $ agent-state plan add "Write the parser"\n  $ agent-state plan start t1\n  $ agent-state plan block t2 --note "waiting for the API key"\n  $ agent-state plan list --json',
    );

  plan
    .command('add')
    .argument('<title>', 'what the step achieves, in one line')
    .description('add a pending step (ids are t1, t2, ... unless --id is given)')
    .option('--id <id>', 'a stable id of your choosing')
    .option('--after <id>', 'insert after this item instead of at the end')
    .option('--depends-on <id...>', 'items that must be done first')
    .addHelpText('after', '\nExample:\n  $ agent-state plan add "Add the migration" --after t2')
    .action(
      defineAction<{ id?: string; after?: string; dependsOn?: string[] }>(
        state,
        async (ctx, [title], flags) => {
          const { result: item, progress } = await updateProgress(
            (p) =>
              addPlanItem(p, {
                title: title!,
                id: flags.id,
                after: flags.after,
                dependsOn: flags.dependsOn,
              }),
            { cwd: ctx.cwd },
          );
          const warnings = await recordFact(ctx, {
            type: 'plan.updated',
            item: item.id,
            title: item.title,
            status: item.status,
            plan: countPlan(progress.plan),
          });
          return {
            text: `Added ${item.id}: ${item.title}`,
            json: { item, revision: progress.revision },
            warnings,
          };
        },
      ),
    );

  for (const [verb, status, description] of TRANSITIONS) {
    plan
      .command(verb)
      .argument('<id>', 'the plan item id')
      .description(description)
      .option('--note <text>', 'why (an empty note removes the existing one)')
      .addHelpText(
        'after',
        `\nExample:\n  $ agent-state plan ${verb} t1${verb === 'block' ? ' --note "needs a decision on the schema"' : ''}`,
      )
      .action(
        defineAction<{ note?: string }>(state, async (ctx, [id], flags) => {
          const {
            result: item,
            changed,
            progress,
          } = await updateProgress((p) => setPlanStatus(p, id!, status, flags.note), {
            cwd: ctx.cwd,
          });
          const plan = countPlan(progress.plan);
          const warnings = !changed
            ? []
            : status === 'running'
              ? await recordFact(ctx, {
                  type: 'step.started',
                  step: item.id,
                  title: item.title,
                  plan,
                })
              : await recordFact(ctx, {
                  type: 'plan.updated',
                  item: item.id,
                  title: item.title,
                  status: item.status,
                  plan,
                });
          return {
            text: `${item.id} ${changed ? 'is now' : 'was already'} ${item.status}: ${item.title}`,
            json: { item, changed, revision: progress.revision },
            warnings,
          };
        }),
      );
  }

  plan
    .command('list')
    .description('list the plan with statuses')
    .addHelpText('after', '\nExample:\n  $ agent-state plan list')
    .action(
      defineAction(state, (ctx) => {
        const { progress } = loadState({ cwd: ctx.cwd });
        const items = progress.plan ?? [];
        return { text: renderPlan(items, ctx), json: { plan: items } };
      }),
    );
}
