// The short history of next_action that lets a restarted agent see it is going in circles: every
// write that changes next_action appends the new value (with its time) to the stamp.
import type { Progress } from '../types.js';

/** How many next actions the stamp keeps. The restart-loop warning shows the last three. */
export const NEXT_ACTION_HISTORY = 5;

/** Appends `after.next_action` to `after.stamp.recent_next_actions` when it differs from `before`'s. */
export function recordNextAction(before: Progress, after: Progress, now: Date): void {
  const text = after.next_action ?? '';
  if (text.trim() === '' || text === (before.next_action ?? '')) return;
  const stamp = (after.stamp ??= {});
  const history = [...(stamp.recent_next_actions ?? []), { text, at: now.toISOString() }];
  stamp.recent_next_actions = history.slice(-NEXT_ACTION_HISTORY);
}
