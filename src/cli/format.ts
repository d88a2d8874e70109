// Small pure formatters shared by the human renderings of several commands.

/** "just now", "5m ago", "3h ago", "2d ago". */
export function formatAge(fromIso: string | null | undefined, now: Date): string {
  if (!fromIso) return 'never';
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86400)}d ago`;
}

/** Seconds since an ISO time, or null. */
export function ageSeconds(fromIso: string | null | undefined, now: Date): number | null {
  if (!fromIso) return null;
  return Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
}

/** "3 items" / "1 item". */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}
