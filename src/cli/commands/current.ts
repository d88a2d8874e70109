// `agent-state current [...]`: show or set the current step and the limits that apply to it.
import type { AgentCommand } from '../agent-command.js';
import { setCurrentStep, type CurrentStepChange } from '../../state/current-step.js';
import { loadState } from '../../task/load-state.js';
import { updateProgress } from '../../task/update-progress.js';
import type { CurrentStep } from '../../types.js';
import { type CommandContext } from '../action.js';
import { recordFact } from '../record.js';

// The options as commander names them: --scope and --constraint are singular there.
type CurrentFlags = Omit<CurrentStepChange, 'scopes' | 'constraints'> & {
  scope?: string[];
  constraint?: string[];
};

function renderStep(step: CurrentStep | null | undefined, ctx: CommandContext): string {
  if (!step)
    return '(no current step: set one with `agent-state current --objective "..."` or `agent-state plan start ID`)';
  const rows: [string, string | undefined][] = [
    ['Step', step.id],
    ['Objective', step.objective],
    ['Done when', step.expected_output],
    ['Allowed', step.allowed_tools?.join(', ')],
    ['Denied', step.denied_tools?.join(', ')],
    ['Scope', step.file_scopes?.join(', ')],
  ];
  const lines = rows
    .filter(([, v]) => v)
    .map(([k, v]) => `${ctx.out.style.bold(k.padEnd(10))}${v}`);
  for (const c of step.constraints ?? [])
    lines.push(`${ctx.out.style.bold('Rule'.padEnd(10))}${c}`);
  return lines.join('\n');
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerCurrent(program: AgentCommand): void {
  program
    .command('current')
    .description(
      'show or set the current step: objective, expected output, allowed/denied tools, file scopes, rules',
    )
    .option('--objective <text>', 'what the step must achieve')
    .option('--expected <text>', 'what the step produces, so it is clear when it is done')
    .option(
      '--allow-tools <names>',
      'tools the agent may use (comma-separated; repeatable; "" clears)',
      collect,
    )
    .option(
      '--deny-tools <names>',
      'tools the agent must not use (comma-separated; repeatable; "" clears)',
      collect,
    )
    .option('--scope <glob...>', 'path globs the step may modify ("" clears)')
    .option('--constraint <text...>', 'rules for this step only ("" clears)')
    .option('--clear', 'remove the current step (other options then start a new one)')
    .helpAfter(
      '\nEach option replaces that field; the others stay.\n\nExamples:\n  $ agent-state current\n  $ agent-state current --objective "Paginate GET /todos" --expected "page=2&limit=10 returns items 11-20"\n  $ agent-state current --deny-tools WebFetch --scope "src/routes/**" "test/**"\n  $ agent-state current --clear',
    )
    .run<CurrentFlags>(async (ctx, _args, flags) => {
      const change = {
        objective: flags.objective,
        expected: flags.expected,
        allowTools: flags.allowTools,
        denyTools: flags.denyTools,
        scopes: flags.scope,
        constraints: flags.constraint,
        clear: flags.clear === true,
      };
      // A field is set when given; clear is false when not.
      const setting = Object.values(change).some((v) => v !== undefined && v !== false);
      if (!setting) {
        const { progress } = loadState(ctx);
        return {
          text: renderStep(progress.current_step, ctx),
          json: { current_step: progress.current_step ?? null, changed: false },
        };
      }
      const { progress, changed } = await updateProgress((p) => setCurrentStep(p, change), ctx);
      const step = progress.current_step ?? null;
      const warnings = changed
        ? await recordFact(ctx, {
            type: 'task.updated',
            // What the step is, in a few words; empty: it was cleared.
            current_step: step ? (step.objective ?? step.id ?? '(no objective)') : '',
          })
        : [];
      return {
        text: `${changed ? 'Current step set' : 'Unchanged'}:\n${renderStep(step, ctx)}`,
        json: { current_step: step, changed, revision: progress.revision },
        warnings,
      };
    });
}
