// Small pure formatters shared by the human renderings of several commands.

/** Seconds since an ISO time, or null. */
export function ageSeconds(fromIso: string | null | undefined, now: Date): number | null {
  if (!fromIso) return null;
  return Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
}

/** "3 items" / "1 item". */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}
