// One-shot reminders (pure): queued by `remind`, shown once by the next real boot, which records
// their keys in the local recovery record; the next write of progress.yaml removes them.
import { createHash } from '../text/lazy-crypto.js';
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

/** A stable key of one reminder (its time and text). */
export function reminderKey(reminder: Reminder): string {
  return createHash('sha256').update(`${reminder.at}\0${reminder.text}`).digest('hex').slice(0, 16);
}

/** The queued reminders no boot has shown yet, oldest first. */
export function pendingReminders(progress: Progress, shown: Iterable<string>): Reminder[] {
  const seen = new Set(shown);
  return (progress.reminders ?? []).filter((r) => !seen.has(reminderKey(r)));
}

/** Removes the reminders in `shown` from a progress value; returns whether any were there. */
export function dropShownReminders(progress: Progress, shown: Iterable<string>): boolean {
  const kept = pendingReminders(progress, shown);
  if (kept.length === (progress.reminders ?? []).length) return false;
  progress.reminders = kept;
  return true;
}

/** Removes every queued reminder and returns them, oldest first (for callers that own the file). */
export function takeReminders(progress: Progress): Reminder[] {
  const taken = progress.reminders ?? [];
  if (progress.reminders !== undefined) progress.reminders = [];
  return taken;
}
