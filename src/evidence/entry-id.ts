// Evidence ids (pure): sequence numbers (000012) and unique ids that cannot collide across
// agents or branches (20261130T140500123Z-3f9c2a: the UTC time to the millisecond, six random
// hex digits), and the one order of both kinds.

/** Whether an id is a sequence number (000012) rather than a unique id. */
export function isSequenceId(id: string): boolean {
  return /^\d{6}$/.test(id);
}

/** A unique id: the UTC time to the millisecond and six random hex digits. */
export function uniqueEntryId(now: Date, random: string): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${random}`;
}

/**
 * Oldest first: sequence ids (an older numbering, or the default agent's) by number, then unique
 * ids, whose time prefix orders them across agents and branches.
 */
export function compareEntryIds(a: string, b: string): number {
  const sa = isSequenceId(a);
  if (sa !== isSequenceId(b)) return sa ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** How prompts name an entry: a unique id's six random hex digits (`evidence show` takes them). */
export function shortEntryId(id: string): string {
  return isSequenceId(id) ? id : id.slice(-6);
}
