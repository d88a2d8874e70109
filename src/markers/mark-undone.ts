// `undone ID`: withdraws a completion marker (the step must be redone or re-proven).
import { findRoot } from '../state/find-root.js';
import { withStateLock } from '../state/store.js';
import { updateProgressLocked } from '../task/update-progress.js';
import { sweepMarkerLists } from './marker-list.js';
import type { BaseOptions, PlanItem } from '../types.js';

export interface MarkUndoneResult {
  id: string;
  /** Whether a marker existed and was removed. */
  removed: boolean;
  /** The plan item after the change (put back to pending when it was done), or null. */
  item: PlanItem | null;
  revision: number;
}

/** Removes the marker of `id`; a plan item that was `done` goes back to `pending`. */
export async function markUndone(
  id: string,
  options: BaseOptions & { force?: boolean } = {},
): Promise<MarkUndoneResult> {
  const paths = findRoot(options.cwd);
  const { result, progress } = await withStateLock(
    paths,
    async () => {
      const update = await updateProgressLocked(
        paths,
        (p) => {
          const removed = p.markers !== undefined && id in p.markers;
          if (removed) delete p.markers![id];
          const item = p.plan?.find((i) => i.id === id) ?? null;
          if (item && item.status === 'done') item.status = 'pending';
          return { removed, item: item ? { ...item } : null };
        },
        options,
      );
      sweepMarkerLists(paths, update.progress.markers ?? {}, options.env);
      return update;
    },
    options,
  );
  return { id, ...result, revision: progress.revision };
}
