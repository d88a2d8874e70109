// The task part of the status from the state files. progress.yaml and goals.md are the declared
// task state (hand edits included), so when they are at hand they win over what the events say.
import { countPlan } from '../state/plan.js';
import type { Progress } from '../types.js';
import type { StatusSnapshot } from './types.js';

/** A copy of `snapshot` whose task (goal, stage, next action, step, plan counts) comes from the state files. */
export function withTaskState(
  snapshot: StatusSnapshot,
  state: { anchor: string; progress: Progress },
): StatusSnapshot {
  const { progress } = state;
  const counts = countPlan(progress.plan);
  const current = progress.current_step;
  const running = progress.plan?.find((item) => item.status === 'running');
  let step: StatusSnapshot['task']['step'] = null;
  if (current?.id || current?.objective)
    step = {
      id: current.id ?? running?.id ?? '-',
      title: current.objective ?? running?.title ?? null,
    };
  else if (running) step = { id: running.id, title: running.title };
  return {
    ...snapshot,
    task: {
      goal: state.anchor || snapshot.task.goal,
      stage: progress.stage || null,
      next_action: progress.next_action || null,
      step,
      plan: counts.total > 0 ? counts : null,
    },
  };
}
