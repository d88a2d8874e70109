// `agent-state plan ...`: add items, change their status, claim and release them, list them.
import { Option } from 'commander';
import type { AgentCommand } from '../agent-command.js';
import { resolveAgent } from '../../state/agent-name.js';
import { claimState, describeClaim, planClaims, type ClaimClock } from '../../task/claims.js';
import {
  PLAN_STATUS_ICONS,
  addPlanItem,
  countPlan,
  readyItems,
  removePlanItem,
  retitlePlanItem,
  setPlanNeeds,
  setPlanStatus,
} from '../../state/plan.js';
import { loadState } from '../../task/load-state.js';
import { findRoot } from '../../state/find-root.js';
import { withStateLock } from '../../state/store.js';
import { sweepMarkerLists } from '../../markers/marker-list.js';
import { updateProgress, updateProgressLocked } from '../../task/update-progress.js';
import type { PlanItem, PlanStatus, Progress } from '../../types.js';
import { type CommandContext } from '../action.js';
import { recordFact } from '../record.js';

const TRANSITIONS: [verb: string, status: PlanStatus, description: string][] = [
  ['start', 'running', 'mark an item running (and make it the current step)'],
  ['block', 'blocked', 'mark an item blocked (say why with --note)'],
  ['skip', 'skipped', 'mark an item skipped'],
  ['fail', 'failed', 'mark an item failed'],
  ['reset', 'pending', 'put an item back to pending'],
];

/** One line per plan item, for humans; claims (and who finished an item) when `clock` is given. */
export function renderPlan(
  plan: readonly PlanItem[],
  ctx: CommandContext,
  clock?: ClaimClock,
  finishedBy: Record<string, string | undefined> = {},
): string {
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
      const state = clock ? claimState(item, clock) : null;
      const by = finishedBy[item.id];
      const owner = state
        ? ` (${describeClaim(state, clock!.now)})`
        : item.status === 'done' && by
          ? ctx.out.style.dim(` (done by ${by})`)
          : '';
      return `${colored} ${item.id.padEnd(width)}  ${item.title}${deps}${note}${owner}`;
    })
    .join('\n');
}

interface AddFlags {
  id?: string;
  after?: string;
  needs?: string[];
  dependsOn?: string[];
}

// `--needs t1,t2`, `--needs t1 t2` and the older `--depends-on t1 t2` all give one list.
function idList(...lists: (string[] | undefined)[]): string[] {
  return lists.flatMap((list) => list ?? []).flatMap((id) => id.split(',').filter(Boolean));
}

// The plan.updated fact of a change to `item`: its status unless `change` says otherwise.
function planFact(ctx: CommandContext, item: PlanItem, plan: Progress['plan'], change?: object) {
  const what = change ?? { status: item.status };
  return recordFact(ctx, {
    type: 'plan.updated',
    item: item.id,
    title: item.title,
    ...what,
    plan: countPlan(plan),
  });
}

const CLAIM_HELP = `
A claim needs an agent name (--agent NAME or AGENT_STATE_AGENT). While it is live, other agents'
claims and status changes of the item are refused (exit 4) with the claimer's name and the
claim's age. It expires agents.claim_expire_minutes (config, default 120) after it was made or renewed;
the claimer's own status changes renew it, and done or skipped ends it.

Examples:
  $ AGENT_STATE_AGENT=alice agent-state plan claim t3
  $ agent-state --agent bob plan claim t3 --force`;

export function registerPlan(program: AgentCommand): void {
  const plan = program
    .command('plan')
    .description('the plan: add steps, change their status, list them')
    .helpAfter(
      '\nExamples:\n  $ agent-state plan add "Write the parser"\n  $ agent-state plan add "Wire the parser in" --needs t1\n  $ agent-state plan ready\n  $ agent-state plan start t1\n  $ agent-state plan block t2 --note "waiting for the API key"\n  $ agent-state plan list --json',
    );
  const onItem = (verb: string) => plan.command(verb).argument('<id>', 'the plan item id');

  plan
    .command('add')
    .argument('<title>', 'what the step achieves, in one line')
    .description(
      'add a pending step (its id is new and random, such as t-k3f9a, unless --id is given)',
    )
    .option('--id <id>', 'a stable id of your choosing')
    .option('--after <id>', 'insert after this item instead of at the end')
    .option('--needs <ids...>', 'items that must be done first (t1,t2 or t1 t2)')
    .addOption(new Option('--depends-on <ids...>', 'the older spelling of --needs').hideHelp())
    .helpAfter(
      '\nExamples:\n  $ agent-state plan add "Add the migration" --after t-k3f9a\n  $ agent-state plan add "Deploy" --needs t-k3f9a,t-7hq2m',
    )
    .run<AddFlags>(async (ctx, [title], { id, after, needs, dependsOn }) => {
      const dependencies = idList(needs, dependsOn);
      const add = (p: Progress) =>
        addPlanItem(p, { title: title!, id, after, dependsOn: dependencies });
      const { result: item, progress } = await updateProgress(add, ctx);
      const warnings = await planFact(ctx, item, progress.plan);
      return {
        text: `Added ${item.id}: ${item.title}`,
        json: { item, revision: progress.revision },
        warnings,
      };
    });

  for (const [verb, status, description] of TRANSITIONS)
    onItem(verb)
      .description(description)
      .option('--note <text>', 'why (an empty note removes the existing one)')
      .option('--force', "change it although another agent's live claim holds it")
      .helpAfter(
        `\nExample:\n  $ agent-state plan ${verb} t1${verb === 'block' ? ' --note "needs a decision on the schema"' : ''}`,
      )
      .run<{ note?: string; force?: boolean }>(async (ctx, [id], flags) => {
        const {
          result: item,
          changed,
          progress,
        } = await updateProgress((p) => setPlanStatus(p, id!, status, flags.note), {
          cwd: ctx.cwd,
          env: ctx.env,
          force: flags.force,
        });
        const started = { type: 'step.started', step: item.id, title: item.title };
        const warnings = !changed
          ? []
          : status === 'running'
            ? await recordFact(ctx, { ...started, plan: countPlan(progress.plan) })
            : await planFact(ctx, item, progress.plan);
        return {
          text: `${item.id} ${changed ? 'is now' : 'was already'} ${item.status}: ${item.title}`,
          json: { item, changed, revision: progress.revision },
          warnings,
        };
      });

  onItem('needs')
    .argument('[needs...]', 'the items it needs done first (t1,t2 or t1 t2); none clears them')
    .description("set an item's needs, replacing the ones it had")
    .helpAfter(
      `
An item is ready (\`plan ready\`) once every item it needs is done or skipped. A need that does
not exist, or one that would close a circle (t1 needs t2 needs t1), is refused (exit 2).

Examples:
  $ agent-state plan needs t4 t2,t3
  $ agent-state plan needs t4`,
    )
    .run(async (ctx, [id, ...needs]) => {
      const set = (p: Progress) => setPlanNeeds(p, id!, idList(needs));
      const { result: item, changed, progress } = await updateProgress(set, { cwd: ctx.cwd });
      const list = item.depends_on?.join(', ');
      return {
        text: `${item.id} ${changed ? 'now needs' : 'already needed'} ${list ?? 'nothing'}: ${item.title}`,
        json: { item, changed, revision: progress.revision },
      };
    });

  plan
    .command('ready')
    .description('list the pending items whose needs are all done: what can start now')
    .helpAfter('\nExamples:\n  $ agent-state plan ready\n  $ agent-state plan ready --json')
    .run((ctx) => {
      const items = loadState({ cwd: ctx.cwd }).progress.plan ?? [];
      const ready = readyItems(items);
      const waiting = countPlan(items).pending - ready.length;
      const text = ready.length
        ? renderPlan(ready, ctx)
        : `(nothing is ready${waiting ? `: ${waiting} pending waiting on others, see \`agent-state plan list\`` : ''})`;
      return { text, json: { ready, waiting } };
    });

  onItem('claim')
    .description(
      "claim an item for this agent (refused while another agent's claim is live; claiming again renews it)",
    )
    .option('--force', "take it over although another agent's claim is live")
    .helpAfter(CLAIM_HELP)
    .run<{ force?: boolean }>(async (ctx, [id], flags) => {
      const agent = resolveAgent({ env: ctx.env });
      const now = ctx.now();
      const { claimItem } = await import('../../task/claim-item.js');
      const update = await claimItem(id!, { ...ctx, ...flags, now: () => now });
      const { item, action, previous } = update.result;
      const taken = previous ? ` (took it over from ${describeClaim(previous, now)})` : '';
      const verbed = action === 'renewed' ? 'renewed its claim on' : 'claimed';
      return {
        text: `${agent} ${verbed} ${item.id}: ${item.title}${taken}`,
        json: {
          item,
          action,
          previous,
          changed: update.changed,
          revision: update.progress.revision,
        },
      };
    });

  onItem('release')
    .description("release this agent's claim on an item")
    .option('--force', "release another agent's live claim")
    .helpAfter('\nExample:\n  $ agent-state --agent alice plan release t3')
    .run<{ force?: boolean }>(async (ctx, [id], flags) => {
      const now = ctx.now();
      const { releaseItem } = await import('../../task/claim-item.js');
      const update = await releaseItem(id!, { ...ctx, ...flags, now: () => now });
      const { item, released } = update.result;
      return {
        text: released
          ? `Released ${item.id} (${describeClaim(released, now)})`
          : `${item.id} was not claimed`,
        json: { item, released, changed: update.changed, revision: update.progress.revision },
      };
    });

  plan
    .command('list')
    .description('list the plan with statuses and claims')
    .helpAfter('\nExample:\n  $ agent-state plan list')
    .run((ctx) => {
      const { progress, config } = loadState(ctx);
      const items = progress.plan ?? [];
      const clock = { now: ctx.now(), expireMinutes: config.agents.claim_expire_minutes };
      const finishedBy = Object.fromEntries(
        Object.entries(progress.markers ?? {}).map(([id, marker]) => [id, marker.agent]),
      );
      const claims = planClaims(progress, clock);
      return { text: renderPlan(items, ctx, clock, finishedBy), json: { plan: items, claims } };
    });

  onItem('retitle')
    .argument('<title>', 'the new title, in one line')
    .description('give an item a new title')
    .helpAfter('\nExample:\n  $ agent-state plan retitle t2 "Parse dates too"')
    .run(async (ctx, [id, title]) => {
      const retitle = (p: Progress) => retitlePlanItem(p, id!, title!);
      const options = { cwd: ctx.cwd, env: ctx.env };
      const { result: item, progress } = await updateProgress(retitle, options);
      const warnings = await planFact(ctx, item, progress.plan);
      const json = { item, revision: progress.revision };
      return { text: `Retitled ${item.id}: ${item.title}`, json, warnings };
    });

  onItem('remove')
    .description('remove an item, with its completion marker and the dependencies on it')
    .option('--force', "remove it although another agent's live claim holds it")
    .helpAfter('\nExample:\n  $ agent-state plan remove t4')
    .run<{ force?: boolean }>(async (ctx, [id], flags) => {
      const paths = findRoot(ctx.cwd);
      const remove = (p: Progress) => removePlanItem(p, id!);
      const options = { env: ctx.env, force: flags.force };
      const { result: item, progress } = await withStateLock(paths, async () => {
        const update = await updateProgressLocked(paths, remove, options);
        // A removed marker's file list (a big marker's, beside progress.yaml) goes with it.
        sweepMarkerLists(paths, update.progress.markers ?? {}, ctx.env);
        return update;
      });
      const warnings = await planFact(ctx, item, progress.plan, { removed: true });
      const json = { item, revision: progress.revision };
      return { text: `Removed ${item.id}: ${item.title}`, json, warnings };
    });
}
