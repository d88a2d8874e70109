// Publishing the status to one consumer (a model's context) by one of three strategies, decided
// from the consumer's cursor. Pure: the cursor and the view in, the text to print (or null: nothing
// changed) and the next cursor out.
//   append  — the whole status whenever it changed; earlier ones stay in the context (N × S tokens).
//   replace — the same, marked as superseding the previous one, which the host removes.
//   delta   — a baseline once per epoch, then only the changed sections (N × Δ tokens).
// A compaction (the host dropped earlier messages), a --reset or a change of strategy starts a new
// epoch: the next publish is a full baseline.
import { diffStatus, stableHash, type StatusDiff } from './diff.js';
import {
  renderStatus,
  renderStatusDelta,
  type StatusFormat,
  type StatusRenderKind,
} from './render.js';
import { isEmptyStatus, type StatusSections, type StatusView } from './sections.js';

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

function fullKind(strategy: PublishStrategy): 'full' | 'replace' | 'baseline' {
  return strategy === 'delta' ? 'baseline' : strategy === 'replace' ? 'replace' : 'full';
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
  const epoch = cursor === null ? 1 : cursor.epoch + (newEpoch ? 1 : 0);
  const hash = stableHash(view.sections);
  const empty = isEmptyStatus(view.sections);
  let output: string | null = null;
  let kind: PublishResult['kind'] = 'none';
  let diff: StatusDiff | null = null;
  const whole = () => {
    kind = fullKind(strategy);
    output = renderStatus(view, format, { kind, epoch: strategy === 'delta' ? epoch : undefined });
  };
  if (newEpoch || cursor === null) {
    if (!empty) whole(); // a consumer that knows nothing needs no "cleared" marker
  } else if (hash !== cursor.hash) {
    if (strategy === 'delta' && !isEmptyStatus(cursor.baseline)) {
      diff = diffStatus(cursor.baseline, view.sections);
      kind = diff.cleared ? 'cleared' : 'delta';
      output = renderStatusDelta(view, diff, format, { epoch });
    } else if (empty) {
      kind = 'cleared';
      output = renderStatusDelta(view, diffStatus(cursor.baseline, view.sections), format, {
        epoch,
      });
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
