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
import { peekCompaction } from '../recovery/record-store.js';
import { AgentStateError, formatLocation } from '../errors.js';
import { redactSecrets } from '../text/redact.js';
import { cachedConfig } from '../state/config-cache.js';
import type { LoadedState } from '../task/load-state.js';
import type { Repo } from '../state/find-root.js';
import type { Config } from '../types.js';
import type { HostAdapter } from './host-adapter.js';
import type { HostHookEvent, HostHookFact, HostHookOutcome } from './host-hook-event.js';
import {
  blockStopFor,
  bootPrompt,
  hookStatus,
  loadTask,
  progressSinceCheckpoint,
  recordFacts as record,
  stopBlockedFor,
  type HookCall,
} from './host-hook-context.js';
import {
  announce,
  compactionNote,
  confirm,
  confirmFromTranscript,
  setCompaction,
} from './host-hook-compaction.js';
import {
  expectPostTool,
  inFlight,
  postToolInBackground,
  settlePostTool,
} from './async-post-tool.js';
import { checkToolCall, denyReason, toolCheckModes, warningContext } from './tool-check.js';
import { toolNames } from '../events/tool-names.js';
import { repoRelative, toolWrittenPaths } from './tool-paths.js';
import { orElse } from './or-else.js';

// The most the status baseline adds after a boot prompt (it renders in a few hundred tokens).
const STATUS_ROOM = 1500;

// The status as an outcome ({} when there is nothing to tell).
const told = (context: string): HostHookOutcome => (context ? { context } : {});

// The boot prompt, then the status baseline for this host's consumer (so later deltas apply).
async function bootContext(call: HookCall, source: string): Promise<string> {
  const config = await call.config();
  const maxChars = config.integrations.max_context_chars;
  const room = Math.min(STATUS_ROOM, Math.floor(maxChars / 4));
  let boot: string;
  try {
    boot = await bootPrompt(call, source, maxChars - room - 2);
  } catch (error) {
    // A busy state costs the boot's count, never the prompt.
    if (!(error instanceof AgentStateError) || error.code !== 'BUSY') throw error;
    call.notes.push(`the boot was not counted: ${error.message}`);
    boot = await bootPrompt(call, source, maxChars - room - 2, true);
  }
  const baseline = await hookStatus(call, 'baseline', room);
  return baseline ? `${boot}\n\n${baseline}` : boot;
}

// The longest error message the notice quotes (a YAML error can quote a long line).
const NOTICE_MESSAGE_CHARS = 400;

/**
 * A state file that does not parse leaves the agent without its boot prompt, and hosts show the
 * model nothing of stderr: instead of the prompt it gets this notice, naming file:line and the
 * fix, so that it can repair the file or tell the user. Null for any other error.
 */
function brokenStateNotice(error: unknown): HostHookOutcome | null {
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
// after a compaction stays owed until it is fixed); delivered, the boot owed is not.
async function bootOrNotice(call: HookCall, source: string, owed: boolean) {
  let outcome: HostHookOutcome;
  try {
    outcome = { context: await bootContext(call, source) };
  } catch (error) {
    const notice = brokenStateNotice(error);
    if (!notice) throw error;
    outcome = notice;
  }
  if (owed && outcome.note === undefined) await setCompaction(call, bootDelivered);
  return outcome;
}

// The boot prompt owed after a confirmed compaction, delivered once.
async function deliverOwed(call: HookCall): Promise<HostHookOutcome | null> {
  if (!peekCompaction(call.repo.paths, call.env).owed) return null;
  return bootOrNotice(call, 'compact', true);
}

async function sessionStart(call: HookCall): Promise<HostHookOutcome> {
  const source = call.event.source ?? 'startup';
  const pending = peekCompaction(call.repo.paths, call.env);
  if (source === 'compact') await confirm(call, 'session-start');
  else if (pending.note || pending.owed) await setCompaction(call, sessionStarted);
  return bootOrNotice(call, source, source === 'compact');
}

async function prompt(call: HookCall): Promise<HostHookOutcome> {
  await confirmFromTranscript(call);
  // Hosts without a SessionStart after compaction (Gemini CLI, older Codex) get it here.
  const owed = await deliverOwed(call);
  if (call.host.transcript) await announce(call, true);
  if (owed !== null) return owed;
  // A compaction announced and never confirmed did not happen: no boot, no count.
  if (!call.host.transcript && peekCompaction(call.repo.paths, call.env).note)
    await setCompaction(call, (state) => expireNote(state).state);
  return told(await hookStatus(call, 'delta'));
}

// Forbidden (forbidden-guard.ts: it needs only goals.md and the mode) and the current step's
// limits (from the whole state; a broken state file costs those, never the Forbidden check).
async function preTool(call: HookCall): Promise<HostHookOutcome> {
  const { event, repo, env } = call;
  const { tool } = event;
  if (!tool) return {};
  const paths = repo.paths;
  const guard = (await import('./forbidden-guard.js')).guardForbidden(tool, event.cwd, paths, env);
  let state: LoadedState | null = null;
  try {
    state = await loadTask(call);
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
  const enforced = findings.filter(
    (f) => (f.kind === 'forbidden' ? guard.mode : step) === 'enforce',
  );
  if (enforced.length > 0) {
    const permission = enforced.map((f) => f.rule).join('; ');
    await record({ paths }, [{ type: 'permission.denied', tool: tool.name, permission }]);
    return { deny: denyReason(enforced, event.host) };
  }
  // The call runs: a Stop hook must wait for its post-tool call, even one not started yet.
  if (tool.id !== undefined && postToolInBackground(call.host)) expectPostTool(paths, tool.id);
  // When a shell command starts (unless refused): a file it changes can then be told apart
  // from someone else's edit.
  if (toolNames(tool.name).includes('bash'))
    await record({ paths }, [{ type: 'tool.started', name: tool.name }]);
  const context = [findings.length > 0 ? warningContext(findings) : '', await signalsNow(call)];
  return told(context.filter(Boolean).join('\n\n'));
}

// The signals a host with signalsBeforeTool gets before a tool call (what changed since it was
// last told); a state that cannot be read costs them, never the call.
async function signalsNow(call: HookCall): Promise<string> {
  if (!call.host.signalsBeforeTool) return '';
  try {
    return await hookStatus(call, 'signals');
  } catch (error) {
    call.notes.push(`no signals: ${(error as Error).message}`);
    return '';
  }
}

async function postTool(call: HookCall): Promise<HostHookOutcome> {
  const { event, repo } = call;
  const tool = event.tool;
  if (!tool) return {};
  const ok = tool.ok !== false;
  const facts: HostHookFact[] = [{ type: 'tool.finished', name: tool.name, ok }];
  const { max_hash_bytes } = (await call.config()).fingerprint;
  for (const raw of ok ? toolWrittenPaths(tool) : []) {
    const rel = repoRelative(repo.paths.root, event.cwd, raw);
    if (rel === null) continue;
    // What the file holds right after (a later change by someone else is then told apart);
    // never fails the hook.
    const hash = orElse(() => hashFile(join(repo.paths.root, rel), max_hash_bytes), null);
    facts.push({ type: 'file.modified', path: rel, tool: tool.name, state: hash ?? 'deleted' });
  }
  await record({ paths: repo.paths }, facts);
  // A host that proves compactions by its transcript: one announced may have happened.
  if (call.host.transcript) {
    await confirmFromTranscript(call);
    const owed = await deliverOwed(call);
    await announce(call, false);
    if (owed !== null) return owed;
  }
  return call.host.signalsBeforeTool ? {} : told(await hookStatus(call, 'signals'));
}

async function preCompact(call: HookCall): Promise<HostHookOutcome> {
  const trigger = call.event.trigger ?? 'auto';
  // A broken state file must not cost the boot owed after this compaction (nor its notice).
  let state: LoadedState | null = null;
  let broken: HostHookOutcome | null = null;
  try {
    state = await loadTask(call);
  } catch (error) {
    broken = brokenStateNotice(error);
    if (!broken) throw error;
  }
  const blocks = state?.config.integrations.pre_compact === 'block' && trigger === 'manual';
  if (blocks && (await progressSinceCheckpoint(state!.progress)).changed)
    return {
      block:
        'agent-state: progress changed since the last checkpoint. Run `agent-state checkpoint -m "a one-line summary"` first, then compact.',
    };
  // Only a note: the host may still decide not to compact (nothing is counted until it says so).
  // The boot prompt follows the confirmation: SessionStart(compact) (Claude Code, Codex, OpenCode's
  // session.compacted), or, for hosts without one, the next prompt or tool call.
  const note = compactionNote(call, trigger);
  await setCompaction(call, (st) => noteCompaction(st, note));
  return broken ? { note: broken.note } : {};
}

async function stop(call: HookCall): Promise<HostHookOutcome> {
  const { event, repo } = call;
  await settlePostTool(repo.paths);
  if (event.stopHookActive) return {};
  const state = await loadTask(call);
  if (state.config.integrations.stop_checkpoint !== 'block') return {};
  const progress = await progressSinceCheckpoint(state.progress);
  if (!progress.changed || stopBlockedFor(repo.paths) === progress.key) return {};
  blockStopFor(repo.paths, progress.key);
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
  // Claude Code's and Codex's PostCompact: counted (once, with SessionStart(compact)), the boot
  // prompt owed until a session start or prompt delivers it.
  'post-compact': async (call: HookCall): Promise<HostHookOutcome> => {
    await confirm(call, 'post-compact');
    return {};
  },
  stop,
} as const;

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
  const background = host.events[event.hostEvent]?.extra?.async === true;
  const handler = HANDLERS[event.kind];
  const work = () => handler(call);
  const outcome = await (background ? inFlight(repo.paths, work, event.tool?.id) : work());
  if (call.notes.length === 0) return outcome;
  return { ...outcome, note: [outcome.note, ...call.notes].filter(Boolean).join('; ') };
}
