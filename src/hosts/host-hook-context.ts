// What a host hook hands the model and the log (boot prompt, status, recorded facts), in-process.
// Heavy modules load only in the calls that need them, so the hot path (after every tool call)
// appends to the log and computes the signals from the cached snapshot, without the YAML parser.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootFact } from '../boot/boot-fact.js';
import { appendEvents, type AppendOptions } from '../events/append.js';
import { readCursor, writeCursor } from '../events/cursor-store.js';
import { eventLogPaths } from '../events/log-paths.js';
import { publishStatus, type PublishCursor } from '../events/publish.js';
import type { StatusSections } from '../events/sections.js';
import { loadStatus } from '../events/status-cache.js';
import type { EventInput } from '../events/types.js';
import { readStoredRecovery } from '../recovery/record-store.js';
import { buildStatusView } from '../status/status-view.js';
import { hookAgent } from '../state/agent-name.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { ForbiddenMatcher } from '../state/forbidden.js';
import type { StatePaths } from '../state/paths.js';
import type { Repo } from '../state/find-root.js';
import type { LoadedState } from '../task/load-state.js';
import type { Config, Progress } from '../types.js';
import type { HostAdapter } from './host-adapter.js';
import type { HostHookEvent, HostHookFact } from './host-hook-event.js';
import { orElse } from './or-else.js';

/** One hook call: its event and host, the state root found once, the config read once. */
export interface HookCall {
  event: HostHookEvent;
  host: HostAdapter;
  repo: Repo;
  env: NodeJS.ProcessEnv;
  /** config.yaml's values, from the cache (read on first use). */
  config(): Promise<Config>;
  /** Failures that did not stop the call, for one line on stderr. */
  notes: string[];
}

/** Cuts text to at most `maxChars`, at a line boundary, saying how to get the rest. */
export function capContext(text: string, maxChars: number, rest: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut to ${maxChars} characters for the host: ${rest}]`;
  const room = Math.max(0, maxChars - marker.length);
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

/**
 * Appends a call's facts to the event log of `where` in one append (one lock). A log that cannot
 * be written is not the host's (or the tool's) problem: the call goes on without it.
 */
export async function recordFacts(
  where: Pick<AppendOptions, 'paths' | 'cwd' | 'agent'>,
  facts: readonly HostHookFact[],
): Promise<void> {
  try {
    await appendEvents(
      facts.map((fact) => ({ actor: 'tool' as const, ...fact }) as EventInput),
      { ...where, timeoutMs: 2000 },
    );
  } catch {
    /* not recorded: `agent-state events` will not show it */
  }
}

/** The whole state (goals, progress; the config as already read); throws for invalid files. */
export async function loadTask(call: HookCall): Promise<LoadedState> {
  const { loadState } = await import('../task/load-state.js');
  const { paths } = call.repo;
  return loadState({ cwd: paths.root, paths, config: await call.config(), env: call.env });
}

const BOOT_SOURCES = ['startup', 'resume', 'compact', 'clear'] as const;

/**
 * The boot prompt, at most `maxChars` long, recorded as a `boot` fact as the CLI does. The level
 * follows from the source (a resume is level 1 unless a level-3 cause exists); the budget keeps
 * it under maxChars (prose runs ~4 characters a token).
 */
export async function bootPrompt(
  call: HookCall,
  source: string,
  maxChars: number,
  dryRun?: boolean,
): Promise<string> {
  const { boot } = await import('../boot/boot.js');
  const config = await call.config();
  const result = await boot({
    cwd: call.repo.paths.root,
    repo: call.repo,
    level: 'auto',
    source: BOOT_SOURCES.find((s) => s === source) ?? null,
    budget: Math.max(100, Math.min(config.budget.total, Math.floor(maxChars / 4))),
    session: call.event.sessionId ?? call.event.host,
    dryRun,
    env: call.env,
  });
  await recordFacts({ paths: call.repo.paths }, [{ ...bootFact(result), actor: 'system' }]);
  return capContext(result.text, maxChars, 'run `agent-state boot` for the whole prompt');
}

/**
 * `baseline` starts the consumer over and returns the whole status; `delta` what changed since
 * it was last told ('' when nothing); `signals` only a change of the control signals (one new,
 * one gone, one of another level), '' otherwise.
 */
export type HookStatusMode = 'baseline' | 'delta' | 'signals';

// What identifies the signals a consumer was told: a count moving in a message is not news.
const signalsKey = (signals: StatusSections['signals'] | undefined) =>
  (signals ?? []).map((x) => `${x.id}\0${x.key}\0${x.level}`).join('\n');

// The signals-only publish from the cached snapshot alone: '' when the signals are what the
// consumer was told, null when that cannot be told without the state files (a touched Forbidden
// file: is it still changed? a loop the last boot found: did anything move since?) or when the
// consumer needs the whole status (no baseline of this epoch yet).
async function signalsFromLog(
  call: HookCall,
  cursor: PublishCursor | null,
  config: Config,
): Promise<string | null> {
  const { paths } = call.repo;
  const { snapshot } = loadStatus(paths);
  let forbidden: ForbiddenMatcher | undefined;
  if (snapshot.files.modified.length > 0 && existsSync(paths.goals)) {
    const { parseGoals } = await import('../state/goals.js');
    const entries = parseGoals(readFileSync(paths.goals, 'utf8')).goals.forbidden;
    if (entries.length > 0) {
      const { caseInsensitive, compileForbidden } = await import('../state/forbidden.js');
      forbidden = compileForbidden(entries, { nocase: caseInsensitive(paths.root) });
    }
  }
  const stalled = readStoredRecovery(paths, hookAgent(call.env))?.last?.stalled ?? 0;
  const looped = stalled >= config.boot.stall_threshold;
  if (looped || (forbidden && snapshot.files.modified.some((p) => forbidden(p) !== null)))
    return null;
  const now = new Date();
  const { view } = buildStatusView(snapshot, { now, config, forbidden, restartLoop: null });
  if (signalsKey(view.sections.signals) === signalsKey(cursor?.baseline.signals)) return '';
  if (!cursor || cursor.strategy !== 'delta' || snapshot.compactions > cursor.compactions)
    return null;
  const result = publishStatus(cursor, view, {
    strategy: 'delta',
    format: call.host.statusFormat,
    consumer: call.event.host,
    compactions: snapshot.compactions,
    only: ['signals'],
  });
  if (result.cursorChanged) writeCursor(eventLogPaths(paths), result.cursor);
  return result.output ?? '';
}

/** The status for the host's consumer (see HookStatusMode), at most `maxChars` (default: config). */
export async function hookStatus(
  call: HookCall,
  mode: HookStatusMode,
  maxChars?: number,
): Promise<string> {
  const { repo } = call;
  const config = await call.config();
  const consumer = call.event.host;
  const cap = (text: string) =>
    capContext(text, maxChars ?? config.integrations.max_context_chars, 'run `agent-state status`');
  const signals = mode === 'signals';
  const cursor = signals ? readCursor(eventLogPaths(repo.paths), consumer) : null;
  const told = signals ? await signalsFromLog(call, cursor, config) : null;
  if (told !== null) return told && cap(told);
  const { publishStatusTo } = await import('../status/publish-to.js');
  const { readStatus } = await import('../status/read-status.js');
  const status = await readStatus({ state: await loadTask(call), gitRoot: repo.gitRoot });
  if (signals && signalsKey(status.view.sections.signals) === signalsKey(cursor?.baseline.signals))
    return '';
  const result = await publishStatusTo({
    strategy: 'delta',
    format: call.host.statusFormat,
    consumer,
    reset: mode === 'baseline',
    only: signals ? ['signals'] : undefined,
    status,
  });
  return result.output ? cap(result.output) : '';
}

/**
 * Whether progress changed since the last checkpoint (what a checkpoint's digest covers; before
 * the first checkpoint, any step begun or marked done counts), and a key naming this progress.
 */
export async function progressSinceCheckpoint(progress: Progress) {
  const { progressDigest } = await import('../checkpoint/progress-digest.js');
  const digest = progressDigest(progress);
  const recorded = progress.stamp?.progress_digest;
  const changed = recorded
    ? recorded !== digest
    : (progress.plan ?? []).some((p) => p.status !== 'pending') ||
      Object.keys(progress.markers ?? {}).length > 0;
  return { changed, key: digest };
}

// What the host hooks remember between calls, in .agent/log/hooks.json (local, git-ignored): the
// progress (digest or revision key) a Stop hook last blocked for, as it blocks once per progress.
// (A compaction in flight is part of the recovery record: src/recovery/compaction.ts.)
const hookStatePath = (paths: StatePaths) => join(paths.logDir, 'hooks.json');

/** The progress the Stop hook last blocked for; a missing or unreadable file says none. */
export function stopBlockedFor(paths: StatePaths): string | null {
  const raw = orElse(() => JSON.parse(readFileSync(hookStatePath(paths), 'utf8')) as unknown, null);
  const key = (raw as { stop_blocked_for?: unknown } | null)?.stop_blocked_for;
  return typeof key === 'string' ? key : null;
}

/** Records the progress the Stop hook blocks for (atomically). */
export function blockStopFor(paths: StatePaths, key: string): void {
  mkdirSync(paths.logDir, { recursive: true });
  writeFileAtomic(hookStatePath(paths), `${JSON.stringify({ stop_blocked_for: key })}\n`);
}
