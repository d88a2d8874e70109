// Reading the page's model from disk with the library's own readers (the state files as `verify`
// reads them, every problem collected; a log follower that reads only what is new). Writes nothing,
// not even the status cache.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eventLogPaths, type EventLogPaths } from '../events/log-paths.js';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { packageVersion } from '../package-root.js';
import { caseInsensitive, compileForbidden, type ForbiddenMatcher } from '../state/forbidden.js';
import { findRepo, type Repo } from '../state/find-root.js';
import { staysInside } from '../state/repo-path.js';
import type { BaseOptions, ForbiddenEntry } from '../types.js';
import { readStateChecked } from '../verify/read-state-checked.js';
import { verifyChecked } from '../verify/verify.js';
import { hookAgent } from '../state/agent-name.js';
import { DEFAULT_CONFIG } from '../state/config.js';
import { signalInputs } from '../status/signal-inputs.js';
import { withTaskState } from '../events/task-state.js';
import { readRecovery } from '../recovery/record-store.js';
import { buildUiModel, describeTimeline } from './build-model.js';
import { LogFollower, RECENT_EVENTS } from './log-follower.js';
import type { UiModel, UiTimeline } from './model.js';
import { readTimeline } from '../events/read-log.js';

/** Which timeline page to show. */
export interface TimelineQuery {
  /** Only these types (`tool.*` for a family); empty or absent: every type. */
  types?: string[];
  /** Only events below this seq (the next older page). */
  before?: number;
  /** Events per page (default 50). */
  limit?: number;
}

/** The Task Context of one state root, read for the page. */
export class UiSource {
  readonly repo: Repo;
  readonly log: EventLogPaths;
  private readonly follower: LogFollower;
  private forbidden: { key: string; match?: ForbiddenMatcher } = { key: '[]' };

  constructor(private readonly options: BaseOptions & { recent?: number } = {}) {
    this.repo = findRepo(options.cwd);
    this.log = eventLogPaths(this.repo.paths);
    this.follower = new LogFollower(this.log, options.recent ?? RECENT_EVENTS);
  }

  /** The model as the files are now; `timeline` picks another page than the newest events. */
  async model(timeline: TimelineQuery = {}): Promise<UiModel> {
    const { paths, gitRoot } = this.repo;
    if (gitRoot !== null) prefetchGitSnapshot(paths.root, gitRoot, this.options.env);
    const state = readStateChecked(paths);
    const report = await verifyChecked(this.repo, state, { ...this.options, readOnly: true });
    const log = this.follower.refresh();
    const forbidden = this.matcher(state.goals?.forbidden ?? []);
    const custom = (timeline.types?.length ?? 0) > 0 || timeline.before !== undefined;
    const page = custom
      ? readTimeline(this.log, { ...timeline, limit: timeline.limit ?? RECENT_EVENTS })
      : { events: log.recent, more: log.olderExist };
    const progress = state.progress ?? null;
    // The facts `status` judges its signals with, so that the page shows the same signals.
    const facts = await signalInputs({
      repo: this.repo,
      snapshot: progress ? withTaskState(log.snapshot, { anchor: '', progress }) : log.snapshot,
      forbidden,
      fingerprint: progress?.fingerprint ?? null,
      record: readRecovery(paths, progress?.stamp, hookAgent(this.options.env)),
      threshold: (state.config ?? DEFAULT_CONFIG).boot.stall_threshold,
      progress,
      env: this.options.env,
    });
    const present = new Set<string>();
    for (const entry of state.evidence)
      for (const ref of entry.refs ?? [])
        if (staysInside(paths.root, ref.path) && existsSync(join(paths.root, ref.path)))
          present.add(ref.path);
    return buildUiModel({
      now: (this.options.now ?? (() => new Date()))(),
      root: paths.root,
      generator: `agent-state ${packageVersion()}`,
      goals: state.goals ?? null,
      progress,
      config: state.config ?? null,
      problems: state.problems,
      warnings: report.warnings,
      evidence: state.evidence,
      presentArtifacts: present,
      report: state.problems.length > 0 ? null : report,
      log,
      timeline: { ...page, types: timeline.types ?? [] },
      forbidden,
      facts,
    });
  }

  /** One timeline page alone (for the page's filter and its older pages). */
  timeline(query: TimelineQuery): UiTimeline {
    const page = readTimeline(this.log, { ...query, limit: query.limit ?? RECENT_EVENTS });
    const forbidden = this.matcher(readStateChecked(this.repo.paths).goals?.forbidden ?? []);
    return describeTimeline({ ...page, types: query.types ?? [] }, forbidden);
  }

  // The Forbidden globs compiled once per version of the Forbidden section.
  private matcher(entries: readonly ForbiddenEntry[]): ForbiddenMatcher | undefined {
    const key = JSON.stringify(entries);
    if (key !== this.forbidden.key)
      this.forbidden = {
        key,
        match: entries.some((e) => e.globs.length > 0)
          ? compileForbidden(entries, { nocase: caseInsensitive(this.repo.paths.root) })
          : undefined,
      };
    return this.forbidden.match;
  }
}
