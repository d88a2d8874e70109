// The status a model reads, projected from a snapshot with the signals that hold now (pure): what
// `status` renders and what a host hook publishes from the cached snapshot alone.
import { redactValue } from '../text/redact.js';
import type { ForbiddenMatcher } from '../state/forbidden.js';
import type { Config } from '../types.js';
import { statusSections, type StatusView } from '../events/sections.js';
import { computeSignals, type SignalOptions, type StatusSignal } from '../events/signals.js';
import type { StatusSnapshot } from '../events/types.js';

export interface StatusViewOptions extends Pick<SignalOptions, 'stillChanged' | 'restartLoop'> {
  now: Date;
  config: Config;
  /** Forbidden globs of goals.md, for the forbidden-path signal. */
  forbidden?: ForbiddenMatcher;
}

/** Projects a snapshot onto the view a model reads, with the signals that hold now. */
export function buildStatusView(
  snapshot: StatusSnapshot,
  options: StatusViewOptions,
): { view: StatusView; signals: StatusSignal[] } {
  const signals = computeSignals(
    snapshot,
    { ...options.config.signals, stall_threshold: options.config.boot.stall_threshold },
    options,
  );
  return {
    view: {
      seq: snapshot.seq,
      // Whole seconds: milliseconds would only cost tokens.
      generated_at: options.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      // Hand edits of the state files are not redacted on disk: the view a model reads is.
      sections: redactValue(statusSections(snapshot, signals)),
    },
    signals,
  };
}
