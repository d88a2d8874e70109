// One-shot reminders (pure, on a progress value): queued by `remind`, shown and removed by the
// next boot that is not a dry run. The store runs both under the lock, so each is shown once.
import type { Progress, Reminder } from '../types.js';
import { requireText } from './text-input.js';

/** Queues a reminder; returns it. */
export function queueReminder(progress: Progress, text: string, now: Date): Reminder {
  const reminder: Reminder = {
    text: requireText(text, 'the reminder', 'agent-state remind "Ask about the page size"'),
    at: now.toISOString(),
  };
  (progress.reminders ??= []).push(reminder);
  return reminder;
}

/** Removes every queued reminder and returns them, oldest first. */
export function takeReminders(progress: Progress): Reminder[] {
  const taken = progress.reminders ?? [];
  if (progress.reminders !== undefined) progress.reminders = [];
  return taken;
}
