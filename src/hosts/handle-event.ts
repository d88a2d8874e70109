// What each kind of host hook call does, host-neutral. The state libraries (boot, event log,
// status, checkpoint digest) are called in-process and loaded lazily (host-hook-context.ts), so
// the hottest call (post-tool, after every tool) loads no more than it needs. One call finds the
// state root once and reads the config once, from its cache.
import { join } from 'node:path';
import { hashFile } from '../fingerprint/hash-file.js';
import {
  bootDelivered,
  expireNote,
  noteCompaction,
  sessionStarted,
} from '../recovery/compaction.js';
import { peekCompaction } from '../recovery/compaction-store.js';
import { AgentStateError, formatLocation } from '../errors.js';
import { redactSecrets } from '../text/redact.js';
import { cachedConfig } from '../state/config-cache.js';
import type { LoadedState } from '../task/load-state.js';
import type { Repo } from '../state/find-root.js';
import type { Config } from '../types.js';
import type { HostAdapter } from './host-adapter.js';
import type { HostHookEvent, HostHookFact, HostHookOutcome } from './host-hook-event.js';
import {
  bootPrompt,
  hookStatus,
  loadTask,
  progressSinceCheckpoint,
  recordFacts as record,
  type HookCall,
  type HookStatusOptions,
} from './host-hook-context.js';
import {
  announce,
  compaction,
  compactionNote,
  confirm,
  confirmFromTranscript,
} from './host-hook-compaction.js';
import { readHookState, writeHookState } from './host-hook-state.js';
import {
  checkToolCall,
  denyReason,
  toolCheckModes,
  warningContext,
  type ToolFinding,
} from './tool-check.js';
import { toolNames } from '../events/tool-names.js';
import { repoRelative, toolWrittenPaths } from './tool-paths.js';

// The most the status baseline adds after a boot prompt (it renders in a few hundred tokens).
const STATUS_ROOM = 1500;

// The status for this host's consumer, at most `maxChars` (default: the config's limit) long.
async function status(call: HookCall, mode: HookStatusOptions['mode'], maxChars?: number) {
  const config = await call.config();
  return hookStatus(call.repo, call.event.host, {
    mode,
    maxChars: maxChars ?? config.integrations.max_context_chars,
    format: call.host.statusFormat,
    config,
    env: call.env,
  });
}

// The boot prompt, then the status baseline for this host's consumer (so later deltas apply).
async function bootContext(call: HookCall, source: string): Promise<string> {
  const config = await call.config();
  const maxChars = config.integrations.max_context_chars;
  const room = Math.min(STATUS_ROOM, Math.floor(maxChars / 4));
  const options = {
    source,
    maxChars: maxChars - room - 2,
    session: call.event.sessionId ?? call.event.host,
    env: call.env,
  };
  let boot: string;
  try {
    boot = await bootPrompt(call.repo, config, options);
  } catch (error) {
    // A busy state costs the boot's count, never the prompt.
    if (!(error instanceof AgentStateError) || error.code !== 'BUSY') throw error;
    call.notes.push(`the boot was not counted: ${error.message}`);
    boot = await bootPrompt(call.repo, config, { ...options, dryRun: true });
  }
  const baseline = await status(call, 'baseline', room);
  return baseline ? `${boot}\n\n${baseline}` : boot;
}

// The longest error message the notice quotes (a YAML error can quote a long line).
const NOTICE_MESSAGE_CHARS = 400;

/**
 * A state file that does not parse leaves the agent without its boot prompt, and hosts show the
 * model nothing of stderr: instead of the prompt it gets this notice, naming file:line and the
 * fix, so that it can repair the file or tell the user. Null for any other error.
 */
export function brokenStateNotice(error: unknown): HostHookOutcome | null {
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

// The boot context, or, while a state file is broken, the notice that says so (the boot owed
// after a compaction stays owed until it is fixed).
async function bootOrNotice(call: HookCall, source: string): Promise<HostHookOutcome> {
  try {
    return { context: await bootContext(call, source) };
  } catch (error) {
    const notice = brokenStateNotice(error);
    if (notice) return notice;
    throw error;
  }
}

// The boot prompt owed after a confirmed compaction, delivered once.
async function deliverOwed(call: HookCall): Promise<HostHookOutcome | null> {
  if (!peekCompaction(call.repo.paths, call.env).owed) return null;
  const outcome = await bootOrNotice(call, 'compact');
  if (outcome.note === undefined)
    await compaction(call, (state) => ({ state: bootDelivered(state), result: null }));
  return outcome;
}

async function sessionStart(call: HookCall): Promise<HostHookOutcome> {
  const source = call.event.source ?? 'startup';
  const pending = peekCompaction(call.repo.paths, call.env);
  if (source === 'compact') await confirm(call, 'session-start');
  else if (pending.note || pending.owed)
    await compaction(call, (state) => ({ state: sessionStarted(state), result: null }));
  const outcome = await bootOrNotice(call, source);
  if (source === 'compact' && outcome.note === undefined)
    await compaction(call, (state) => ({ state: bootDelivered(state), result: null }));
  return outcome;
}

async function prompt(call: HookCall): Promise<HostHookOutcome> {
  await confirmFromTranscript(call);
  // Hosts without a SessionStart after compaction (Gemini CLI, older Codex) get it here.
  const owed = await deliverOwed(call);
  if (call.host.transcript) await announce(call, true);
  if (owed !== null) return owed;
  // A compaction announced and never confirmed did not happen: no boot, no count.
  if (!call.host.transcript && peekCompaction(call.repo.paths, call.env).note)
    await compaction(call, (state) => ({ state: expireNote(state).state, result: null }));
  const context = await status(call, 'delta', (await call.config()).integrations.max_context_chars);
  return context ? { context } : {};
}

async function preTool(call: HookCall): Promise<HostHookOutcome> {
  const tool = call.event.tool;
  if (!tool) return {};
  const outcome = await checkTool(tool, call);
  // When a shell command starts (unless refused): a file it changes can then be told apart
  // from someone else's edit.
  if (!outcome.deny && toolNames(tool.name).includes('bash'))
    await record(call.repo.paths, [{ type: 'tool.started', name: tool.name }]);
  return outcome;
}

// Forbidden (forbidden-guard.ts: it needs only goals.md and the mode) and the current step's
// limits (from the whole state; a broken state file costs those, never the Forbidden check).
async function checkTool(
  tool: NonNullable<HostHookEvent['tool']>,
  call: HookCall,
): Promise<HostHookOutcome> {
  const { event, repo, env } = call;
  const paths = repo.paths;
  const guard = (await import('./forbidden-guard.js')).guardForbidden(tool, event.cwd, paths, env);
  let state: LoadedState | null = null;
  try {
    state = await loadTask(repo, await call.config(), env);
  } catch (error) {
    if (guard.findings.length === 0) throw error;
  }
  const step = state ? toolCheckModes(state.config.integrations, env).step : 'off';
  const findings = [
    ...guard.findings,
    ...(step === 'off'
      ? []
      : checkToolCall({
          tool: tool.name,
          paths: toolWrittenPaths(tool).map((raw) => ({
            raw,
            rel: repoRelative(paths.root, event.cwd, raw),
          })),
          forbidden: [],
          step: state!.progress.current_step,
        })),
  ];
  const modeOf = (f: ToolFinding) => (f.kind === 'forbidden' ? guard.mode : step);
  const enforced = findings.filter((f) => modeOf(f) === 'enforce');
  if (enforced.length > 0) {
    await record(paths, [
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

async function postTool(call: HookCall): Promise<HostHookOutcome> {
  const { event, repo } = call;
  const tool = event.tool;
  if (!tool) return {};
  const ok = tool.ok !== false;
  const facts: HostHookFact[] = [{ type: 'tool.finished', name: tool.name, ok }];
  const config = await call.config();
  if (ok) {
    for (const raw of toolWrittenPaths(tool)) {
      const rel = repoRelative(repo.paths.root, event.cwd, raw);
      // What the file holds right after: a later change by someone else is then told apart.
      const state = rel === null ? null : (fileState(repo.paths.root, rel, config) ?? 'deleted');
      if (rel !== null) facts.push({ type: 'file.modified', path: rel, tool: tool.name, state });
    }
  }
  await record(repo.paths, facts);
  // A host that proves compactions by its transcript: one announced may have happened.
  if (call.host.transcript) {
    await confirmFromTranscript(call);
    const owed = await deliverOwed(call);
    await announce(call, false);
    if (owed !== null) return owed;
  }
  const context = await status(call, 'signals');
  return context ? { context } : {};
}

async function preCompact(call: HookCall): Promise<HostHookOutcome> {
  const { event } = call;
  const trigger = event.trigger ?? 'auto';
  // A broken state file must not cost the boot owed after this compaction (nor its notice).
  let state: LoadedState | null = null;
  let broken: HostHookOutcome | null = null;
  try {
    state = await loadTask(call.repo, await call.config(), call.env);
  } catch (error) {
    broken = brokenStateNotice(error);
    if (!broken) throw error;
  }
  if (state && state.config.integrations.pre_compact === 'block' && trigger === 'manual') {
    const progress = await progressSinceCheckpoint(state.progress);
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
  const note = compactionNote(call, trigger);
  await compaction(call, (st) => ({ state: noteCompaction(st, note), result: null }));
  return broken ? { note: broken.note } : {};
}

async function postCompact(call: HookCall): Promise<HostHookOutcome> {
  // Claude Code's and Codex's PostCompact: counted (once, with SessionStart(compact)), the boot
  // prompt owed until a session start or prompt delivers it.
  await confirm(call, 'post-compact');
  return {};
}

async function stop(call: HookCall): Promise<HostHookOutcome> {
  const { event, repo } = call;
  if (event.stopHookActive) return {};
  const state = await loadTask(repo, await call.config(), call.env);
  if (state.config.integrations.stop_checkpoint !== 'block') return {};
  const progress = await progressSinceCheckpoint(state.progress);
  if (!progress.changed) return {};
  const hooks = readHookState(repo.paths);
  if (hooks.stop_blocked_for === progress.key) return {};
  writeHookState(repo.paths, { ...hooks, stop_blocked_for: progress.key });
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

/** Handles one hook call of `host` against the state of `repo`. */
export async function handleHookEvent(
  host: HostAdapter,
  event: HostHookEvent,
  repo: Repo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HostHookOutcome> {
  if (event.kind === 'other') return {};
  let config: Promise<Config> | undefined;
  const call: HookCall = {
    event,
    host,
    repo,
    env,
    config: () => (config ??= cachedConfig(repo.paths)),
    notes: [],
  };
  const outcome = await HANDLERS[event.kind](call);
  if (call.notes.length === 0) return outcome;
  return { ...outcome, note: [outcome.note, ...call.notes].filter(Boolean).join('; ') };
}
