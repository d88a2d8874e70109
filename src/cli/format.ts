// Small pure formatters shared by the human renderings of several commands.

/** Seconds since an ISO time, or null. */
export function ageSeconds(fromIso: string | null | undefined, now: Date): number | null {
  if (!fromIso) return null;
  return Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
}
