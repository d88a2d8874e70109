// Publishing the status to one consumer (a model's context), decided from its cursor. Pure: cursor
// and view in, the text to print (null: nothing changed) and the next cursor out.
//   append  — the whole status whenever it changed; earlier ones stay in the context (N × S tokens).
//   replace — the same, marked as superseding the previous one, which the host removes.
//   delta   — a baseline once per epoch, then only the changed sections (N × Δ tokens).
// A compaction (the host dropped earlier messages), --reset or another strategy starts a new epoch.
import { renderStatus, renderStatusDelta, type StatusFormat } from './render.js';
import {
  canonicalJson,
  diffStatus,
  isEmptyStatus,
  stableHash,
  type SectionName,
  type StatusDiff,
  type StatusRenderKind,
  type StatusSections,
  type StatusView,
} from './sections.js';

export type PublishStrategy = 'append' | 'replace' | 'delta';

export const PUBLISH_STRATEGIES: readonly PublishStrategy[] = ['append', 'replace', 'delta'];

/** What one consumer was last told: `.agent/log/publish-NAME.json`. */
export interface PublishCursor {
  version: 1;
  consumer: string;
  strategy: PublishStrategy;
  /** Starts at 1; a new epoch begins with a full baseline. */
  epoch: number;
  /** stableHash of the sections last published. */
  hash: string;
  /** The sections as the consumer now knows them (the epoch's baseline with every delta applied). */
  baseline: StatusSections;
  /** The last event seq the consumer's status covers. */
  seq: number;
  /** Compaction events seen; one more in the snapshot means the consumer lost its context. */
  compactions: number;
  /** When something was last printed. */
  published_at: string | null;
}

export interface PublishOptions {
  strategy: PublishStrategy;
  format: StatusFormat;
  consumer: string;
  /** The snapshot's compaction count. */
  compactions: number;
  /** Start a new epoch with a full baseline. */
  reset?: boolean;
  /**
   * Publish only a change of these sections (the rest waits for the next full publish). For
   * `signals`, a change is a signal added, gone, or of another level or key, not a moved count.
   */
  only?: readonly SectionName[];
}

export interface PublishResult {
  /** What to hand to the model, or null when nothing changed. */
  output: string | null;
  kind: StatusRenderKind | 'none';
  epoch: number;
  newEpoch: boolean;
  /** The section diff, for delta publishes. */
  diff: StatusDiff | null;
  cursor: PublishCursor;
  /** Whether the cursor differs from the one passed in (it needs writing). */
  cursorChanged: boolean;
}

// What must differ for a section to count as changed in an `only` publish.
function identity(name: SectionName, sections: StatusSections): string {
  if (name === 'signals')
    return (sections.signals ?? []).map((s) => `${s.id}\0${s.key}\0${s.level}`).join('\n');
  return canonicalJson(sections[name] ?? null);
}

// A publish of some sections only, to a consumer with a baseline of this epoch: the sections it
// knows, with just those replaced.
function publishOnly(
  cursor: PublishCursor,
  view: StatusView,
  only: readonly SectionName[],
  format: StatusFormat,
): Omit<PublishResult, 'epoch' | 'newEpoch'> {
  const moved = only.filter(
    (name) => identity(name, cursor.baseline) !== identity(name, view.sections),
  );
  if (moved.length === 0)
    return { output: null, kind: 'none', diff: null, cursor, cursorChanged: false };
  const baseline = { ...cursor.baseline };
  for (const name of moved) (baseline as Record<string, unknown>)[name] = view.sections[name];
  const diff = diffStatus(cursor.baseline, baseline);
  const { epoch } = cursor;
  const output = renderStatusDelta({ ...view, sections: baseline }, diff, format, { epoch });
  const next = { ...cursor, hash: stableHash(baseline), baseline, published_at: view.generated_at };
  const kind = diff.cleared ? 'cleared' : 'delta';
  return { output, kind, diff, cursor: next, cursorChanged: true };
}

/** Decides what to publish to a consumer and how its cursor moves. */
export function publishStatus(
  cursor: PublishCursor | null,
  view: StatusView,
  options: PublishOptions,
): PublishResult {
  const { strategy, format } = options;
  const newEpoch =
    cursor === null ||
    options.reset === true ||
    options.compactions > cursor.compactions ||
    cursor.strategy !== strategy;
  if (options.only && cursor !== null && !newEpoch && strategy === 'delta') {
    const only = publishOnly(cursor, view, options.only, format);
    return { epoch: cursor.epoch, newEpoch, ...only };
  }
  const epoch = cursor === null ? 1 : cursor.epoch + (newEpoch ? 1 : 0);
  const hash = stableHash(view.sections);
  const empty = isEmptyStatus(view.sections);
  let output: string | null = null;
  let kind: PublishResult['kind'] = 'none';
  let diff: StatusDiff | null = null;
  const whole = () => {
    kind = strategy === 'delta' ? 'baseline' : strategy === 'replace' ? 'replace' : 'full';
    output = renderStatus(view, format, { kind, epoch: strategy === 'delta' ? epoch : undefined });
  };
  if (newEpoch || cursor === null) {
    if (!empty) whole(); // a consumer that knows nothing needs no "cleared" marker
  } else if (hash !== cursor.hash) {
    const delta = strategy === 'delta' && !isEmptyStatus(cursor.baseline);
    if (delta || empty) {
      const changes = diffStatus(cursor.baseline, view.sections);
      if (delta) diff = changes;
      kind = delta && !changes.cleared ? 'delta' : 'cleared';
      output = renderStatusDelta(view, changes, format, { epoch });
    } else whole();
  }
  const next: PublishCursor = {
    version: 1,
    consumer: options.consumer,
    strategy,
    epoch,
    hash,
    baseline: view.sections,
    seq: view.seq,
    compactions: options.compactions,
    published_at: output === null ? (cursor?.published_at ?? null) : view.generated_at,
  };
  const cursorChanged =
    cursor === null ||
    newEpoch ||
    cursor.hash !== hash ||
    cursor.seq !== next.seq ||
    cursor.compactions !== next.compactions;
  return { output, kind, epoch, newEpoch, diff, cursor: next, cursorChanged };
}
