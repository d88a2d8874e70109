// Comparing two status views section by section, and the stable hash that says whether
// anything changed at all. Pure.
import { createHash } from '../text/lazy-crypto.js';
import { STATUS_SECTIONS, type SectionName, type StatusSections } from './sections.js';

/** How `current` differs from what the consumer was last told (`previous`). */
export interface StatusDiff {
  /** Present before and now, with another value. */
  changed: SectionName[];
  /** Empty before, present now. */
  added: SectionName[];
  /** Present before, empty now: the model must be told it no longer applies. */
  removed: SectionName[];
  unchanged: SectionName[];
  /** Every section is empty now, and some were not: the whole status no longer applies. */
  cleared: boolean;
}

/** JSON with sorted keys: equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** `sha256:<hex>` of the sections' canonical JSON: the same facts always give the same hash. */
export function stableHash(sections: StatusSections): string {
  return `sha256:${createHash('sha256').update(canonicalJson(sections)).digest('hex')}`;
}

/** Compares section by section; `previous` null means the consumer was told nothing yet. */
export function diffStatus(previous: StatusSections | null, current: StatusSections): StatusDiff {
  const diff: StatusDiff = { changed: [], added: [], removed: [], unchanged: [], cleared: false };
  for (const name of STATUS_SECTIONS) {
    const before = previous?.[name] ?? null;
    const now = current[name] ?? null;
    if (before === null && now === null) diff.unchanged.push(name);
    else if (before === null) diff.added.push(name);
    else if (now === null) diff.removed.push(name);
    else if (canonicalJson(before) === canonicalJson(now)) diff.unchanged.push(name);
    else diff.changed.push(name);
  }
  diff.cleared = diff.removed.length > 0 && STATUS_SECTIONS.every((name) => current[name] == null);
  return diff;
}
