// What each kind of hook call does, host-neutral. The state libraries (boot, event log, status,
// checkpoint digest) are reached through HookServices, called in-process and loaded lazily, so
// the hottest call (post-tool, after every tool) loads no more than it needs.
import type { LoadedState } from '../../state/store.js';
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
  /** The boot prompt, at most `maxChars` long; records the boot in the stamp. */
  boot(
    paths: StatePaths,
    options: { source: string; minLevel: 1 | 2; maxChars: number },
  ): Promise<string>;
  /** Appends facts to the event log; never throws (a log problem must not fail a hook). */
  record(paths: StatePaths, facts: HookFact[]): Promise<void>;
  /**
   * The status for a consumer: `baseline` starts it over and returns the whole status; `delta`
   * returns what changed since it was last told ('' when nothing); `signals` the same, but only
   * when a control signal is active.
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
  /** Counts a compaction in progress' stamp (no test run, nothing else changes). */
  stampCompaction(paths: StatePaths): Promise<void>;
}

// compact always gets at least a restore (level 2); resume a resume (level 1) unless boot's
// auto rule finds drift; startup and clear are auto.
function minLevelFor(source: string): 1 | 2 {
  return source === 'compact' ? 2 : 1;
}

// The most the status baseline adds after a boot prompt (it renders in a few hundred tokens).
const STATUS_ROOM = 1500;

// The boot prompt, then the status baseline for this host's consumer (so later deltas apply).
async function bootContext(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
  source: string,
  minLevel: 1 | 2,
): Promise<string> {
  const maxChars = (await s.readConfig(paths)).integrations.max_context_chars;
  const room = Math.min(STATUS_ROOM, Math.floor(maxChars / 4));
  const boot = await s.boot(paths, { source, minLevel, maxChars: maxChars - room - 2 });
  const status = await s.status(paths, event.host, {
    mode: 'baseline',
    maxChars: room,
    format: statusFormat(event.host),
  });
  return status ? `${boot}\n\n${status}` : boot;
}

async function sessionStart(
  event: HookEvent,
  paths: StatePaths,
  s: HookServices,
): Promise<HookOutcome> {
  const source = event.source ?? 'startup';
  const context = await bootContext(event, paths, s, source, minLevelFor(source));
  const hooks = readHookState(paths);
  if (hooks.compaction_pending) writeHookState(paths, { ...hooks, compaction_pending: null });
  return { context };
}

async function prompt(event: HookEvent, paths: StatePaths, s: HookServices): Promise<HookOutcome> {
  const hooks = readHookState(paths);
  // Hosts without a SessionStart after compaction (Codex, Gemini CLI) get the boot prompt here.
  if (hooks.compaction_pending) {
    const context = await bootContext(event, paths, s, 'compact', 2);
    writeHookState(paths, { ...hooks, compaction_pending: null });
    return { context };
  }
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
  const state = await s.loadState(paths);
  const modes = toolCheckModes(state.config.integrations, env);
  if (modes.forbidden === 'off' && modes.step === 'off') return {};
  const written = toolWrittenPaths(tool).map((raw) => ({
    raw,
    rel: repoRelative(paths.root, event.cwd, raw),
  }));
  const findings = checkToolCall({
    tool: tool.name,
    paths: written,
    forbidden: modes.forbidden === 'off' ? [] : state.goals.forbidden,
    step: modes.step === 'off' ? null : state.progress.current_step,
  });
  const modeOf = (f: ToolFinding) => (f.kind === 'forbidden' ? modes.forbidden : modes.step);
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
  if (ok) {
    for (const raw of toolWrittenPaths(tool)) {
      const rel = repoRelative(paths.root, event.cwd, raw);
      if (rel !== null) facts.push({ type: 'file.modified', path: rel });
    }
  }
  await s.record(paths, facts);
  const maxChars = (await s.readConfig(paths)).integrations.max_context_chars;
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
  const state = await s.loadState(paths);
  if (state.config.integrations.pre_compact === 'block' && trigger === 'manual') {
    const progress = await s.progressSinceCheckpoint(state);
    if (progress.changed) {
      return {
        block:
          'agent-state: progress changed since the last checkpoint. Run `agent-state checkpoint -m "a one-line summary"` first, then compact.',
      };
    }
  }
  await s.record(paths, [{ type: 'compaction', trigger, host: event.host }]);
  const hooks = readHookState(paths);
  // The boot prompt is owed after the compaction: the host's SessionStart(compact) (Claude Code,
  // OpenCode's session.compacted) or, for hosts without one, the next prompt delivers it.
  writeHookState(paths, {
    ...hooks,
    compaction_pending: { host: event.host, at: new Date().toISOString(), trigger },
  });
  return { note: await countCompaction(paths, s) };
}

// Best effort, after what matters more (the boot prompt owed after the compaction): a busy or
// invalid progress.yaml costs the count, not the prompt. Returns the note for stderr, if any.
async function countCompaction(paths: StatePaths, s: HookServices): Promise<string | undefined> {
  try {
    await s.stampCompaction(paths);
    return undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `the compaction was not counted in progress.yaml: ${why}`;
  }
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
  stop,
} as const;

/** Handles one hook call against the state at `paths`. */
export async function handleHookEvent(
  event: HookEvent,
  paths: StatePaths,
  services: HookServices,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HookOutcome> {
  if (event.kind === 'other') return {};
  return HANDLERS[event.kind](event, paths, services, env);
}
