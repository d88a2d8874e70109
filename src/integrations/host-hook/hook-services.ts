// The real HookServices: the state store, the boot prompt, the event log and the status
// publisher, called in-process (never by spawning the CLI). Heavy modules load only in the calls
// that need them, so the hot path (PostToolUse, after every tool call) stays lean: it appends to
// the log and looks at the cached status snapshot, without the YAML parser.
import { existsSync, readFileSync } from 'node:fs';
import { appendEvents } from '../../events/append.js';
import type { EventInput } from '../../events/types.js';
import { computeSignals } from '../../events/signals.js';
import { loadStatus } from '../../events/status-cache.js';
import type { ForbiddenMatcher } from '../../state/forbidden.js';
import type { StatePaths } from '../../state/paths.js';
import type { HookServices } from './handle-event.js';
import { cachedConfig } from '../../state/config-cache.js';

/** Cuts text to at most `maxChars`, at a line boundary, saying how to get the rest. */
export function capContext(text: string, maxChars: number, rest: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut to ${maxChars} characters for the host: ${rest}]`;
  const room = Math.max(0, maxChars - marker.length);
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

// Whether the snapshot (the event log folded) shows a control signal now. The Forbidden-path
// signal needs goals.md, read only when a modified file could match.
async function anySignal(paths: StatePaths): Promise<boolean> {
  const config = await cachedConfig(paths);
  const { snapshot } = loadStatus(paths);
  let forbidden: ForbiddenMatcher | undefined;
  if (snapshot.files.modified.length > 0 && existsSync(paths.goals)) {
    const { parseGoals } = await import('../../state/goals.js');
    const entries = parseGoals(readFileSync(paths.goals, 'utf8')).goals.forbidden;
    if (entries.length > 0)
      forbidden = (await import('../../state/forbidden.js')).compileForbidden(entries);
  }
  const thresholds = { ...config.signals, stall_threshold: config.boot.stall_threshold };
  return computeSignals(snapshot, thresholds, { now: new Date(), forbidden }).length > 0;
}

const BOOT_SOURCES = ['startup', 'resume', 'compact', 'clear'] as const;

// A token budget that keeps the boot prompt under maxChars: prose runs ~4 characters a token.
function budgetFor(maxChars: number, total: number): number {
  return Math.max(100, Math.min(total, Math.floor(maxChars / 4)));
}

// Resume gets level 1 unless the facts make auto choose 3 (drift, a stale marker, a restart loop).
async function resumeLevel(paths: StatePaths): Promise<1 | 'auto'> {
  const { boot } = await import('../../boot/boot.js');
  const probe = await boot({ cwd: paths.root, level: 'auto', dryRun: true, fast: true });
  return probe.level === 3 ? 'auto' : 1;
}

export const hookServices: HookServices = {
  loadState: async (paths) => (await import('../../state/store.js')).loadState({ cwd: paths.root }),
  readConfig: cachedConfig,
  // The boot prompt (and its tokenizer) loads only here; recorded as a `boot` fact, as the CLI does.
  async boot(paths, { source, minLevel, maxChars }) {
    const { boot } = await import('../../boot/boot.js');
    const { omittedFact } = await import('../../boot/omitted-fact.js');
    const config = await cachedConfig(paths);
    const level = source === 'resume' && minLevel === 1 ? await resumeLevel(paths) : 'auto';
    const result = await boot({
      cwd: paths.root,
      level,
      source: BOOT_SOURCES.find((s) => s === source) ?? null,
      budget: budgetFor(maxChars, config.budget.total),
    });
    await hookServices.record(paths, [
      {
        type: 'boot',
        actor: 'system',
        level: result.level,
        ...(result.source ? { source: result.source } : {}),
        omitted: omittedFact(result.omitted),
      },
    ]);
    return capContext(result.text, maxChars, 'run `agent-state boot` for the whole prompt');
  },
  // One append for all the facts of a call (one lock). A log that cannot be written is not the
  // host's problem: the hook goes on without it.
  async record(paths, facts) {
    try {
      await appendEvents(
        facts.map((fact) => ({ actor: 'tool' as const, ...fact }) as EventInput),
        { paths, timeoutMs: 2000 },
      );
    } catch {
      /* not recorded: `agent-state events` will not show it */
    }
  },
  async status(paths, consumer, { mode, maxChars, format }) {
    // After a tool call, speak only when a control signal is active (the host's status bar):
    // decided from the cached snapshot, without loading the state files.
    if (mode === 'signals' && !(await anySignal(paths))) return '';
    const { publishStatusTo } = await import('../../events/publish-to.js');
    const result = await publishStatusTo({
      cwd: paths.root,
      strategy: 'delta',
      format,
      consumer,
      reset: mode === 'baseline',
    });
    return result.output ? capContext(result.output, maxChars, 'run `agent-state status`') : '';
  },
  // Progress is what a checkpoint's digest covers; before the first checkpoint, any step begun
  // or marked done counts.
  async progressSinceCheckpoint({ progress }) {
    const { progressDigest } = await import('../../checkpoint/progress-digest.js');
    const digest = progressDigest(progress);
    const recorded = progress.stamp?.progress_digest;
    const changed = recorded
      ? recorded !== digest
      : (progress.plan ?? []).some((p) => p.status !== 'pending') ||
        Object.keys(progress.markers ?? {}).length > 0;
    return { changed, key: digest };
  },
  async stampCompaction(paths) {
    const [{ updateProgress }, { stampCompaction }] = await Promise.all([
      import('../../state/store.js'),
      import('../../boot/stamp-boot.js'),
    ]);
    const now = new Date();
    await updateProgress((p) => stampCompaction(p, now), { cwd: paths.root });
  },
};
