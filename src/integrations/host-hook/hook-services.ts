// The real HookServices: the state store, the boot prompt, the event log and the status
// publisher, called in-process (never by spawning the CLI). Heavy modules load only in the calls
// that need them, so the hot path (PostToolUse, after every tool call) stays lean: it appends to
// the log and looks at the cached status snapshot, without the YAML parser.
import { existsSync, readFileSync } from 'node:fs';
import { appendEvents } from '../../events/append.js';
import type { EventInput } from '../../events/types.js';
import { readCursor } from '../../events/cursor-store.js';
import { eventLogPaths } from '../../events/log-paths.js';
import { MAX_SIGNALS_SHOWN } from '../../events/sections.js';
import { computeSignals, type StatusSignal } from '../../events/signals.js';
import { loadStatus } from '../../events/status-cache.js';
import { readStoredRecovery } from '../../recovery/record-store.js';
import { hookAgent } from '../../agents/agent-name.js';
import { locateRoot } from '../../state/find-root.js';
import type { ForbiddenMatcher } from '../../state/forbidden.js';
import type { StatePaths } from '../../state/paths.js';
import { peekCompaction, updateCompaction } from '../../recovery/compaction-store.js';
import type { HookServices } from './handle-event.js';
import { geminiCompressedSince, transcriptSize } from './gemini-transcript.js';
import { cachedConfig } from '../../state/config-cache.js';

/** Cuts text to at most `maxChars`, at a line boundary, saying how to get the rest. */
export function capContext(text: string, maxChars: number, rest: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut to ${maxChars} characters for the host: ${rest}]`;
  const room = Math.max(0, maxChars - marker.length);
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

// Whether the control signals may differ from what `consumer` was last told (a signal new, gone,
// or of another level), from the cached snapshot, the recovery record and the consumer's cursor,
// without the YAML parser. It may say yes when the full status then finds nothing to tell (the
// rare cases it cannot decide alone), never no when there is.
async function signalsMayHaveChanged(
  paths: StatePaths,
  consumer: string,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  const config = await cachedConfig(paths);
  const { snapshot } = loadStatus(paths);
  let forbidden: ForbiddenMatcher | undefined;
  if (snapshot.files.modified.length > 0 && existsSync(paths.goals)) {
    const { parseGoals } = await import('../../state/goals.js');
    const entries = parseGoals(readFileSync(paths.goals, 'utf8')).goals.forbidden;
    if (entries.length > 0)
      forbidden = (await import('../../state/forbidden.js')).compileForbidden(entries);
  }
  // Only a touched Forbidden file or a loop the last boot found needs more than the log.
  const record = readStoredRecovery(paths, hookAgent(env));
  const threshold = config.boot.stall_threshold;
  const touched = forbidden && snapshot.files.modified.some((p) => forbidden!(p) !== null);
  const looped = (record?.last?.stalled ?? 0) >= threshold;
  const facts =
    touched || looped
      ? await (
          await import('../../events/signal-facts.js')
        ).signalFacts({
          repo: { paths, gitRoot: locateRoot(paths.root).gitRoot },
          snapshot,
          forbidden,
          fingerprint: null,
          record,
          threshold,
          progress: null,
        })
      : { restartLoop: null };
  const thresholds = { ...config.signals, stall_threshold: config.boot.stall_threshold };
  const signals = computeSignals(snapshot, thresholds, { now: new Date(), forbidden, ...facts });
  const told = readCursor(eventLogPaths(paths), consumer)?.baseline.signals ?? [];
  const key = (list: readonly StatusSignal[]) =>
    list
      .slice(0, MAX_SIGNALS_SHOWN)
      .map((x) => `${x.id}\0${x.key}\0${x.level}`)
      .join('\n');
  return key(signals) !== key(told);
}

const BOOT_SOURCES = ['startup', 'resume', 'compact', 'clear'] as const;

// A token budget that keeps the boot prompt under maxChars: prose runs ~4 characters a token.
function budgetFor(maxChars: number, total: number): number {
  return Math.max(100, Math.min(total, Math.floor(maxChars / 4)));
}

/** The real services for a hook call in the host's environment `env` (its agent, mostly). */
export function hookServices(env: NodeJS.ProcessEnv = process.env): HookServices {
  const services: HookServices = {
    loadState: async (paths) =>
      (await import('../../state/store.js')).loadState({ cwd: paths.root, env }),
    readConfig: cachedConfig,
    // The boot prompt (and its tokenizer) loads only here; recorded as a `boot` fact, as the CLI
    // does. The level follows from the source (a resume is level 1 unless a level-3 cause exists).
    async boot(paths, { source, maxChars, session }) {
      const { boot } = await import('../../boot/boot.js');
      const { omittedFact } = await import('../../boot/omitted-fact.js');
      const config = await cachedConfig(paths);
      const result = await boot({
        cwd: paths.root,
        level: 'auto',
        source: BOOT_SOURCES.find((s) => s === source) ?? null,
        budget: budgetFor(maxChars, config.budget.total),
        session,
        env,
      });
      await services.record(paths, [
        {
          type: 'boot',
          actor: 'system',
          level: result.level,
          stalled: result.choice.stalled,
          reason: result.choice.reason,
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
      // After a tool call, speak only when the signals changed (a new one, one gone): decided from
      // the cached snapshot and the consumer's cursor, without loading the state files.
      if (mode === 'signals' && !(await signalsMayHaveChanged(paths, consumer, env))) return '';
      const { publishStatusTo } = await import('../../events/publish-to.js');
      const result = await publishStatusTo({
        cwd: paths.root,
        env,
        strategy: 'delta',
        format,
        consumer,
        reset: mode === 'baseline',
        only: mode === 'signals' ? ['signals'] : undefined,
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
    peekCompaction: (paths) => peekCompaction(paths, env),
    compaction: (paths, change) => updateCompaction(paths, change, env),
    transcriptShowsCompaction(note) {
      if (note.host !== 'gemini' || !note.transcript) return false;
      return geminiCompressedSince(note.transcript.path, note.transcript.offset, note.at);
    },
    transcriptOffset: transcriptSize,
  };
  return services;
}
