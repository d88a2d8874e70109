// What each kind of hook call does, host-neutral. The state libraries (boot, event log, status,
// checkpoint digest) are reached through HookServices, called in-process and loaded lazily, so
// the hottest call (post-tool, after every tool) loads no more than it needs.
import { join } from 'node:path';
import { hashFile } from '../../fingerprint/hash-file.js';
import {
  bootDelivered,
  confirmCompaction,
  expireNote,
  noteCompaction,
  sessionStarted,
  type CompactionNote,
  type CompactionState,
  type ConfirmedBy,
} from '../../recovery/compaction.js';
import type { CompactionChange } from '../../recovery/compaction-store.js';
import { AgentStateError, formatLocation } from '../../errors.js';
import { redactSecrets } from '../../text/redact.js';
import type { LoadedState } from '../../task/load-state.js';
import type { StatePaths } from '../../state/paths.js';
import type { Config } from '../../types.js';
import type { HookEvent, HookOutcome } from './hook-event.js';
import { statusFormat, type StatusFormatForHost } from './render-output.js';
import { readHookState, writeHookState } from './hook-state.js';
import {
  checkToolCall,
  denyReason,
  toolCheckModes,
  warningContext,
  type ToolFinding,
} from './tool-check.js';
import { toolNames } from '../../events/tool-names.js';
import { repoRelative, toolWrittenPaths } from './tool-paths.js';

/** A fact for the event log (see schemas/event.schema.json). */
export interface HookFact {
  type: string;
  [field: string]: unknown;
}

/** The state libraries a hook uses; implemented in hook-services.ts (and by fakes in tests). */
export interface HookServices {
  /** The whole state (goals, progress, config); throws for invalid files. */
  loadState(paths: StatePaths): Promise<LoadedState>;
  /** Just the config (cached: no YAML parser unless config.yaml changed). */
  readConfig(paths: StatePaths): Promise<Config>;
  /** The boot prompt, at most `maxChars` long; counts the boot in the recovery record. */
  boot(
    paths: StatePaths,
    options: { source: string; maxChars: number; session: string | null },
  ): Promise<string>;
  /** Appends facts to the event log; never throws (a log problem must not fail a hook). */
  record(paths: StatePaths, facts: HookFact[]): Promise<void>;
  /**
   * The status for a consumer: `baseline` starts it over and returns the whole status; `delta`
   * returns what changed since it was last told ('' when nothing); `signals` only a change of the
   * control signals (a new one, one gone, one changed), '' otherwise.
   */
  status(
    paths: StatePaths,
    consumer: string,
    options: {
      mode: 'baseline' | 'delta' | 'signals';
      maxChars: number;
      /** How the host's model reads it (statusFormat). */
      format: StatusFormatForHost;
    },
  ): Promise<string>;
  /** Whether progress changed since the last checkpoint, and a key naming this progress. */
  progressSinceCheckpoint(state: LoadedState): Promise<{ changed: boolean; key: string }>;
  /** The compaction state as stored (a quick look, no lock). */
  peekCompaction(paths: StatePaths): CompactionState;
  /** Changes the compaction state under the state lock (and counts a confirmed compaction). */
  compaction<T>(
    paths: StatePaths,
    change: (state: CompactionState) => CompactionChange<T>,
  ): Promise<T>;
  /** Whether the host's own record shows the compaction a note announced (Gemini CLI). */
  transcriptShowsCompaction(note: CompactionNote): boolean;
  /** Where the host's transcript ends now (a compaction written later starts there). */
  transcriptOffset(path: string): number;
}

// The most the status baseline adds after a boot prompt (it renders in a few hundred tokens).
const STATUS_ROOM = 1500;

const nowIso = () => new Date().toISOString();

// The boot prompt, then the status baseline for this host's consumer (so later deltas apply).
async function bootContext(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
  source: string,
): Promise<string> {
  const maxChars = (await s.readConfig(paths)).integrations.max_context_chars;
  const room = Math.min(STATUS_ROOM, Math.floor(maxChars / 4));
  const boot = await s.boot(paths, {
    source,
    maxChars: maxChars - room - 2,
    session: event.sessionId ?? event.host,
  });
  const status = await s.status(paths, event.host, {
    mode: 'baseline',
    maxChars: room,
    format: statusFormat(event.host),
  });
  return status ? `${boot}\n\n${status}` : boot;
}

// The longest error message the notice quotes (a YAML error can quote a long line).
const NOTICE_MESSAGE_CHARS = 400;

/**
 * A state file that does not parse leaves the agent without its boot prompt, and hosts show the
 * model nothing of stderr: instead of the prompt it gets this notice, naming file:line and the
 * fix, so that it can repair the file or tell the user. Null for any other error.
 */
export function brokenStateNotice(error: unknown): HookOutcome | null {
  if (!(error instanceof AgentStateError) || error.code !== 'INVALID') return null;
  const where = error.location ? `${formatLocation(error.location)}: ` : '';
  const message = redactSecrets(error.message).text;
  const clipped =
    message.length > NOTICE_MESSAGE_CHARS ? `${message.slice(0, NOTICE_MESSAGE_CHARS)}…` : message;
  const problem = `${where}${clipped}${error.hint ? ` (fix: ${error.hint})` : ''}`;
  return {
    context: [
      'agent-state: the task state could not be read, so this session has no boot prompt.',
      problem,
      'Repair that file (`agent-state validate` lists every problem of the state files), then run `agent-state boot` for the prompt. If you cannot repair it, tell the user; until then do not assume the goal, plan or constraints.',
    ].join('\n'),
    note: problem,
  };
}

// A host confirmed a compaction (or its transcript shows one): counted once, recorded in the log
// (a new status epoch), and the boot prompt owed.
async function confirm(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
  by: ConfirmedBy,
): Promise<{ counted: boolean; note: CompactionNote | null }> {
  const at = event.at ?? nowIso();
  const session = event.sessionId ?? null;
  const outcome = await s.compaction(paths, (state) => {
    const c = confirmCompaction(state, { host: event.host, session, at, by });
    return { state: c.state, counted: c.counted ? { at } : null, result: c };
  });
  if (outcome.counted)
    await s.record(paths, [
      {
        type: 'compaction',
        actor: 'system',
        trigger: outcome.note?.trigger ?? event.trigger ?? 'auto',
        host: event.host,
        confirmed_by: by,
      },
    ]);
  return outcome;
}

// Gemini CLI has no hook after a compression: its chat recording is what says one happened.
async function confirmFromTranscript(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<void> {
  const note = s.peekCompaction(paths).note;
  if (!note?.transcript || note.host !== event.host) return;
  if (s.transcriptShowsCompaction(note))
    await confirm({ ...event, sessionId: note.session }, paths, s, 'transcript');
}

// The boot prompt owed after a confirmed compaction, delivered once.
async function deliverOwed(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome | null> {
  if (!s.peekCompaction(paths).owed) return null;
  let context: string;
  try {
    context = await bootContext(event, paths, s, 'compact');
  } catch (error) {
    // Still owed while a state file is broken: the notice says so, the boot comes once it is fixed.
    const notice = brokenStateNotice(error);
    if (notice) return notice;
    throw error;
  }
  await s.compaction(paths, (state) => ({ state: bootDelivered(state), result: null }));
  return { context };
}

async function sessionStart(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome> {
  const source = event.source ?? 'startup';
  if (source === 'compact') await confirm(event, paths, s, 'session-start');
  else if (s.peekCompaction(paths).note || s.peekCompaction(paths).owed)
    await s.compaction(paths, (state) => ({ state: sessionStarted(state), result: null }));
  let context: string;
  try {
    context = await bootContext(event, paths, s, source);
  } catch (error) {
    const notice = brokenStateNotice(error);
    if (notice) return notice;
    throw error;
  }
  if (source === 'compact')
    await s.compaction(paths, (state) => ({ state: bootDelivered(state), result: null }));
  return { context };
}

async function prompt(event: HookEvent, paths: StatePaths, s: HookServices): Promise<HookOutcome> {
  await confirmFromTranscript(event, paths, s);
  // Hosts without a SessionStart after compaction (Gemini CLI, older Codex) get it here.
  const owed = await deliverOwed(event, paths, s);
  if (owed !== null) return owed;
  // A compaction announced and never confirmed did not happen: no boot, no count.
  if (s.peekCompaction(paths).note)
    await s.compaction(paths, (state) => ({ state: expireNote(state).state, result: null }));
  const maxChars = (await s.readConfig(paths)).integrations.max_context_chars;
  const context = await s.status(paths, event.host, {
    mode: 'delta',
    maxChars,
    format: statusFormat(event.host),
  });
  return context ? { context } : {};
}

async function preTool(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
  env: NodeJS.ProcessEnv,
): Promise<HookOutcome> {
  const tool = event.tool;
  if (!tool) return {};
  const outcome = await checkTool(tool, event, paths, s, env);
  // When a shell command starts (unless refused): a file it changes can then be told apart
  // from someone else's edit.
  if (!outcome.deny && toolNames(tool.name).includes('bash'))
    await s.record(paths, [{ type: 'tool.started', name: tool.name }]);
  return outcome;
}

// Forbidden (forbidden-guard.ts: it needs only goals.md and the mode) and the current step's
// limits (from the whole state; a broken state file costs those, never the Forbidden check).
async function checkTool(
  tool: NonNullable<HookEvent['tool']>,
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
  env: NodeJS.ProcessEnv,
): Promise<HookOutcome> {
  const guard = (await import('./forbidden-guard.js')).guardForbidden(tool, event.cwd, paths, env);
  let state: LoadedState | null = null;
  try {
    state = await s.loadState(paths);
  } catch (error) {
    if (guard.findings.length === 0) throw error;
  }
  const step = state ? toolCheckModes(state.config.integrations, env).step : 'off';
  const written = toolWrittenPaths(tool).map((raw) => ({
    raw,
    rel: repoRelative(paths.root, event.cwd, raw),
  }));
  const findings = [
    ...guard.findings,
    ...(step === 'off'
      ? []
      : checkToolCall({
          tool: tool.name,
          paths: written,
          forbidden: [],
          step: state!.progress.current_step,
        })),
  ];
  const modeOf = (f: ToolFinding) => (f.kind === 'forbidden' ? guard.mode : step);
  const enforced = findings.filter((f) => modeOf(f) === 'enforce');
  if (enforced.length > 0) {
    await s.record(paths, [
      {
        type: 'permission.denied',
        tool: tool.name,
        permission: enforced.map((f) => f.rule).join('; '),
      },
    ]);
    return { deny: denyReason(enforced, event.host) };
  }
  return findings.length > 0 ? { context: warningContext(findings) } : {};
}

async function postTool(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome> {
  const tool = event.tool;
  if (!tool) return {};
  const ok = tool.ok !== false;
  const facts: HookFact[] = [{ type: 'tool.finished', name: tool.name, ok }];
  const config = await s.readConfig(paths);
  if (ok) {
    for (const raw of toolWrittenPaths(tool)) {
      const rel = repoRelative(paths.root, event.cwd, raw);
      // What the file holds right after: a later change by someone else is then told apart.
      const state = rel === null ? null : (fileState(paths.root, rel, config) ?? 'deleted');
      if (rel !== null) facts.push({ type: 'file.modified', path: rel, tool: tool.name, state });
    }
  }
  await s.record(paths, facts);
  const maxChars = config.integrations.max_context_chars;
  // Gemini CLI: a compression announced before this model call may have happened.
  if (event.host === 'gemini') {
    await confirmFromTranscript(event, paths, s);
    const owed = await deliverOwed(event, paths, s);
    if (owed !== null) return owed;
  }
  const context = await s.status(paths, event.host, {
    mode: 'signals',
    maxChars,
    format: statusFormat(event.host),
  });
  return context ? { context } : {};
}

async function preCompact(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome> {
  const trigger = event.trigger ?? 'auto';
  // A broken state file must not cost the boot owed after this compaction (nor its notice).
  let state: LoadedState | null = null;
  let broken: HookOutcome | null = null;
  try {
    state = await s.loadState(paths);
  } catch (error) {
    broken = brokenStateNotice(error);
    if (!broken) throw error;
  }
  if (state && state.config.integrations.pre_compact === 'block' && trigger === 'manual') {
    const progress = await s.progressSinceCheckpoint(state);
    if (progress.changed) {
      return {
        block:
          'agent-state: progress changed since the last checkpoint. Run `agent-state checkpoint -m "a one-line summary"` first, then compact.',
      };
    }
  }
  // Only a note: the host may still decide not to compact (nothing is counted until it says so).
  // The boot prompt follows the confirmation: SessionStart(compact) (Claude Code, Codex, OpenCode's
  // session.compacted), or, for hosts without one, the next prompt or tool call.
  const transcript =
    event.host === 'gemini' && event.transcriptPath
      ? { path: event.transcriptPath, offset: s.transcriptOffset(event.transcriptPath) }
      : null;
  const note = {
    host: event.host,
    session: event.sessionId ?? null,
    at: event.at ?? nowIso(),
    trigger,
    transcript,
  };
  await s.compaction(paths, (st) => ({ state: noteCompaction(st, note), result: null }));
  return broken ? { note: broken.note } : {};
}

async function postCompact(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome> {
  // Claude Code's and Codex's PostCompact: counted (once, with SessionStart(compact)), the boot
  // prompt owed until a session start or prompt delivers it.
  await confirm(event, paths, s, 'post-compact');
  return {};
}

async function stop(event: HookEvent, paths: StatePaths, s: HookServices): Promise<HookOutcome> {
  if (event.stopHookActive) return {};
  const state = await s.loadState(paths);
  if (state.config.integrations.stop_checkpoint !== 'block') return {};
  const progress = await s.progressSinceCheckpoint(state);
  if (!progress.changed) return {};
  const hooks = readHookState(paths);
  if (hooks.stop_blocked_for === progress.key) return {};
  writeHookState(paths, { ...hooks, stop_blocked_for: progress.key });
  return {
    block:
      'agent-state: progress changed since the last checkpoint. Run `agent-state checkpoint -m "a one-line summary of what was done"` now (it verifies the tree and runs the tests), then stop.',
  };
}

const HANDLERS = {
  'session-start': sessionStart,
  prompt,
  'pre-tool': preTool,
  'post-tool': postTool,
  'pre-compact': preCompact,
  'post-compact': postCompact,
  stop,
} as const;

// What a file the agent's tool wrote holds now (null: gone); never fails the hook.
function fileState(root: string, rel: string, config: Config): string | null {
  try {
    return hashFile(join(root, rel), config.fingerprint.max_hash_bytes);
  } catch {
    return null;
  }
}

// Changes of the compaction state are best effort: a busy or broken record costs the count (said
// in a note on stderr), never the boot prompt the agent is owed.
function bestEffort(services: HookServices, notes: string[]): HookServices {
  return {
    ...services,
    async compaction(paths, change) {
      try {
        return await services.compaction(paths, change);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        notes.push(`the compaction state was not updated: ${why}`);
        return change(services.peekCompaction(paths)).result;
      }
    },
  };
}

/** Handles one hook call against the state at `paths`. */
export async function handleHookEvent(
  event: HookEvent,
  paths: StatePaths,
  services: HookServices,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HookOutcome> {
  if (event.kind === 'other') return {};
  const notes: string[] = [];
  const outcome = await HANDLERS[event.kind](event, paths, bestEffort(services, notes), env);
  if (notes.length === 0) return outcome;
  return { ...outcome, note: [outcome.note, ...notes].filter(Boolean).join('; ') };
}
