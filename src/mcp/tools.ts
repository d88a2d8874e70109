// The MCP tools: at most eight, each a thin call into the library. Descriptions are short on
// purpose: the agent pays for every word of tools/list on every request.
import { z } from 'zod';
import { CheckFailedError, UsageError } from '../errors.js';
import { addPlanItem, countPlan, readyItems, setPlanStatus } from '../state/plan.js';
import { loadState } from '../task/load-state.js';
import { updateProgress } from '../task/update-progress.js';
import type { BaseOptions, PlanStatus } from '../types.js';

/** What every tool runs with: the directory, the environment, the clock. */
export type McpToolContext = Required<Pick<BaseOptions, 'cwd' | 'env' | 'now'>>;

/** One MCP tool: a name, a one-line description, a zod input shape, and what it does. */
export interface McpTool {
  name: string;
  description: string;
  input: z.ZodRawShape;
  run(args: Record<string, unknown>, ctx: McpToolContext): Promise<unknown>;
}

const VERB_STATUS: Record<string, PlanStatus> = {
  start: 'running',
  block: 'blocked',
  skip: 'skipped',
  fail: 'failed',
  reset: 'pending',
};

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.map(String) : undefined;
const optional = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

export const mcpTools: McpTool[] = [
  {
    name: 'boot',
    description:
      'Restart prompt: goal, constraints, forbidden paths, progress, next action. Call first after a restart or compaction.',
    input: {
      level: z
        .enum(['1', '2', '3', 'auto'])
        .optional()
        .describe('1 resume, 2 restore, 3 rebuild; default auto'),
    },
    run: async (args, ctx) => {
      const { boot } = await import('../boot/boot.js');
      // The schema allows 1, 2, 3, auto or nothing: NaN is auto.
      const level = (Number(args.level) || 'auto') as 1 | 2 | 3 | 'auto';
      const result = await boot({ ...ctx, level });
      // Every boot is a fact in the log, as the CLI and the host hooks record it.
      const { recordEvent } = await import('../events/append.js');
      const { findRoot } = await import('../state/find-root.js');
      const { bootFact } = await import('../boot/boot-fact.js');
      await recordEvent(findRoot(ctx.cwd), bootFact(result), ctx);
      return result.text;
    },
  },
  {
    name: 'status',
    description:
      'Task at a glance: goal, stage, next action, current step, plan counts, ready items, last checkpoint, active signals.',
    input: {},
    run: async (_args, ctx) => {
      const state = loadState({ cwd: ctx.cwd });
      const { goals, progress } = state;
      const { readStatus } = await import('../status/read-status.js');
      const status = await readStatus({ cwd: ctx.cwd, state, now: ctx.now });
      return {
        anchor: goals.anchor,
        stage: progress.stage ?? '',
        next_action: progress.next_action ?? '',
        current_step: progress.current_step ?? null,
        plan: countPlan(progress.plan),
        ready: readyItems(progress.plan).map(({ id, title }) => ({ id, title })),
        last_checkpoint: progress.stamp?.last_checkpoint ?? null,
        revision: progress.revision,
        signals: status.signals.map((signal) => signal.message),
      };
    },
  },
  {
    name: 'next',
    description: 'Set the next action (and optionally the stage); without arguments, show them.',
    input: { text: z.string().optional(), stage: z.string().optional() },
    run: async (args, ctx) => {
      const [text, stage] = [optional(args.text)?.trim(), optional(args.stage)?.trim()];
      const { progress, changed } = await updateProgress(
        (p) => {
          if (text) p.next_action = text;
          if (stage) p.stage = stage;
        },
        { cwd: ctx.cwd, now: ctx.now },
      );
      return { stage: progress.stage ?? '', next_action: progress.next_action ?? '', changed };
    },
  },
  {
    name: 'plan_update',
    description: 'Change the plan: add a step (title), or start/block/skip/fail/reset one (id).',
    input: {
      action: z.enum(['add', 'start', 'block', 'skip', 'fail', 'reset']),
      id: z.string().optional(),
      title: z.string().optional(),
      note: z.string().optional(),
    },
    run: async (args, ctx) => {
      const [action, id] = [String(args.action), typeof args.id === 'string' ? args.id : undefined];
      const note = typeof args.note === 'string' ? args.note : undefined;
      const { result, progress } = await updateProgress(
        (p) => {
          if (action === 'add') {
            if (typeof args.title !== 'string')
              throw new UsageError('add needs a title', { hint: 'pass title' });
            return addPlanItem(p, { title: args.title, ...(id ? { id } : {}) });
          }
          if (!id)
            throw new UsageError(`${action} needs an id`, { hint: 'pass the step id, e.g. t2' });
          return setPlanStatus(p, id, VERB_STATUS[action]!, note);
        },
        { cwd: ctx.cwd, now: ctx.now },
      );
      return { item: result, revision: progress.revision };
    },
  },
  {
    name: 'done',
    description:
      'Mark a step done with a completion marker (sha256 of its files); refresh: true records the files of a STALE marker again.',
    input: {
      id: z.string(),
      files: z.array(z.string()).optional(),
      refresh: z.boolean().optional(),
      note: z.string().optional(),
    },
    run: async (args, ctx) => {
      const { markDone } = await import('../markers/mark-done.js');
      const result = await markDone(String(args.id), {
        ...ctx,
        files: strings(args.files),
        refresh: args.refresh === true,
        note: optional(args.note),
      });
      const { id, files, revision } = result;
      return { id, files, status: result.item.status, revision };
    },
  },
  {
    name: 'check',
    description:
      'Is each step done and its files unchanged? Call before redoing a step. A step marked done without files is unverifiable (ok false).',
    input: { ids: z.array(z.string()).min(1) },
    run: async (args, ctx) => {
      const { checkMarkers } = await import('../markers/check-markers.js');
      const { cwd, env } = ctx;
      const { ok, markers } = await checkMarkers({ cwd, env, ids: strings(args.ids) ?? [] });
      const paths = (changes: { path: string }[]) => changes.map((c) => c.path);
      return {
        ok,
        markers: markers.map((m) => ({ id: m.id, state: m.state, changed: paths(m.changed) })),
      };
    },
  },
  {
    name: 'evidence_add',
    description: 'Record a short evidence entry (test run, decision, finding).',
    input: { kind: z.string(), summary: z.string(), body: z.string().optional() },
    run: async (args, ctx) => {
      const { addEvidence } = await import('../evidence/add-evidence.js');
      const [kind, summary, body] = [String(args.kind), String(args.summary), optional(args.body)];
      const result = await addEvidence({ kind, summary, body }, ctx);
      const { file, redactions, removed } = result;
      return { id: result.meta.id, file, redactions, removed };
    },
  },
  {
    name: 'checkpoint',
    description:
      'Verify the tree and run the tests, then save progress. Refuses with a report if they disagree.',
    input: {
      message: z.string().optional(),
      next: z.string().optional(),
      no_test: z.boolean().optional(),
    },
    run: async (args, ctx) => {
      const { checkpoint } = await import('../checkpoint/checkpoint.js');
      const result = await checkpoint({
        ...ctx,
        test: args.no_test !== true,
        summary: optional(args.message),
        next: optional(args.next),
      });
      if (!result.ok) {
        const why =
          result.findings.map((f) => f.message).join('; ') ||
          (result.test ? `tests failed (exit ${result.test.exit_code})` : result.refused);
        throw new CheckFailedError(`checkpoint refused (${result.refused}): ${why}`, {
          hint: 'fix what it lists, then checkpoint again',
        });
      }
      return {
        checkpoint: result.checkpoint,
        revision: result.revision,
        evidence: result.evidence?.id ?? null,
        progress_changed: result.progress_changed,
      };
    },
  },
];
