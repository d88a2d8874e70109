// What the page needs from the event log, at the cost of the lines appended since the last look:
// the snapshot (the status cache folded forward in memory: the page writes nothing), the newest
// events, the checkpoints, the last boot. History is found once by a backward scan; a rotated or
// replaced log (another inode, or a shorter file) starts it over.
import type { EventLogPaths } from '../events/log-paths.js';
import { corruptWarning, readLogFrom, readTimeline, scanBackward } from '../events/read-log.js';
import { reduceStatus } from '../events/reduce.js';
import { foldStatus, logStat } from '../events/status-cache.js';
import type { AgentEvent, StatusSnapshot } from '../events/types.js';
import type { Warning } from '../types.js';

/** Newest events kept for the first page of the timeline. */
export const RECENT_EVENTS = 50;
/** Checkpoints listed on the page. */
export const MAX_CHECKPOINTS = 20;
const MAX_WARNINGS = 20;

/** What the log says, for the page. */
export interface LogView {
  /** The snapshot folded from every complete line (without the task taken from the state files). */
  snapshot: StatusSnapshot;
  /** The newest events, newest first. */
  recent: AgentEvent[];
  /** Whether events older than `recent` exist. */
  olderExist: boolean;
  /** checkpoint.created events, newest first. */
  checkpoints: AgentEvent[];
  /** The newest boot event, or null when the log holds none. */
  lastBoot: AgentEvent | null;
  /** Skipped lines and a rebuilt cache. */
  warnings: Warning[];
}

const LOG_FILE = '.agent/log/events.jsonl';

/** Follows one task's event log; `refresh()` reads only what was appended since the last call. */
export class LogFollower {
  private ino = -1;
  private offset = 0;
  private view: LogView | null = null;

  constructor(
    private readonly log: EventLogPaths,
    private readonly recentCount = RECENT_EVENTS,
  ) {}

  /** The log as it is now. */
  refresh(): LogView {
    // No log yet (or no folder for it): an empty one.
    const file = logStat(this.log.events) ?? { ino: 0, size: 0 };
    if (!this.view || file.ino !== this.ino || file.size < this.offset) return this.start();
    if (file.size === this.offset) return this.view;
    const view = this.view;
    const read = readLogFrom(
      this.log.events,
      this.offset,
      (events) => {
        view.snapshot = reduceStatus(view.snapshot, events);
        for (const event of events) this.add(view, event);
      },
      view.snapshot.seq,
    );
    this.offset = read.offset;
    addCorrupt(view.warnings, read.corrupt);
    return view;
  }

  private start(): LogView {
    const folded = foldStatus(this.log);
    this.ino = folded.log.ino;
    this.offset = folded.log.offset;
    const warnings: Warning[] = [];
    if (folded.cacheProblem)
      warnings.push({
        file: '.agent/log/status.json',
        message: `the status cache was unusable (${folded.cacheProblem}); folded the log instead`,
      });
    addCorrupt(warnings, folded.corrupt);
    const seq = folded.snapshot.seq;
    // Lines appended after the fold are the next refresh's: the scans stop at the folded seq.
    const page = readTimeline(this.log, { before: seq + 1, limit: this.recentCount });
    const checkpoints: AgentEvent[] = [];
    let lastBoot: AgentEvent | null = null;
    // The snapshot knows whether there is anything to find: a log without a boot is not scanned.
    const wanted = [
      ...(folded.snapshot.boots > 0 ? ['boot'] : []),
      ...(folded.snapshot.checkpoint ? ['checkpoint.created'] : []),
    ];
    if (wanted.length > 0)
      scanBackward(this.log, { before: seq + 1, types: wanted }, (e) => {
        if (e.type === 'boot') lastBoot ??= e;
        else if (checkpoints.length < MAX_CHECKPOINTS) checkpoints.push(e);
        return (
          (lastBoot === null && folded.snapshot.boots > 0) ||
          (checkpoints.length < MAX_CHECKPOINTS && folded.snapshot.checkpoint !== null)
        );
      });
    this.view = {
      snapshot: folded.snapshot,
      recent: page.events,
      olderExist: page.more,
      checkpoints,
      lastBoot,
      warnings,
    };
    return this.view;
  }

  private add(view: LogView, event: AgentEvent): void {
    if (event.seq <= (view.recent[0]?.seq ?? 0)) return;
    view.recent.unshift(event);
    if (view.recent.length > this.recentCount) {
      view.recent.length = this.recentCount;
      view.olderExist = true;
    }
    if (event.type === 'boot') view.lastBoot = event;
    if (event.type === 'checkpoint.created') {
      view.checkpoints.unshift(event);
      view.checkpoints.length = Math.min(view.checkpoints.length, MAX_CHECKPOINTS);
    }
  }
}

function addCorrupt(warnings: Warning[], corrupt: { afterSeq: number; offset: number }[]): void {
  for (const line of corrupt) {
    if (warnings.length >= MAX_WARNINGS) return;
    warnings.push(corruptWarning(LOG_FILE, line));
  }
}
