// `agent-state statusline`: one short line for the human under the host's prompt (Claude Code's
// statusLine runs it after each assistant message, with session JSON on stdin):
//   implementing · next: Add the pagination test · plan 1/3 · checkpoint 5m ago · ⚠ 3 failures in a row
// Never fails: without .agent/ or with an invalid state it prints a short hint instead.
import { AgentStateError } from '../../errors.js';
import { clip } from '../../events/sections.js';
import { findRoot } from '../../state/find-root.js';
import { loadState } from '../../task/load-state.js';
import { countPlan } from '../../state/plan.js';
import { safeText } from '../../text/safe-text.js';
import { orElse } from '../or-else.js';

export interface StatuslineValues {
  stage: string | null;
  nextAction: string | null;
  done: number;
  total: number;
  lastCheckpoint: string | null;
  /** Active control signals, shortest form first (from the status snapshot). */
  signals: string[];
}

const MAX_NEXT = 48;

function age(fromIso: string | null, now: Date): string {
  if (!fromIso) return 'no checkpoint yet';
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  const [unit, per] = s < 3600 ? ['m', 60] : s < 86400 ? ['h', 3600] : ['d', 86400];
  return `checkpoint ${s < 60 ? 'just now' : `${Math.round(s / per)}${unit} ago`}`;
}

/** The status line for some facts (pure). */
export function renderStatusline(facts: StatuslineValues, now: Date): string {
  const parts = [
    facts.stage ?? 'no stage',
    facts.nextAction ? `next: ${clip(facts.nextAction, MAX_NEXT)}` : 'next: (none set)',
    `plan ${facts.done}/${facts.total}`,
    age(facts.lastCheckpoint, now),
  ];
  const [first, ...more] = facts.signals;
  if (facts.signals.length)
    parts.push(`⚠ ${clip(first!, 40)}${more.length ? ` (+${more.length})` : ''}`);
  return parts.join(' · ');
}

function cwdFrom(input: string, fallback: string): string {
  type Payload = { workspace?: { current_dir?: unknown }; cwd?: unknown } | null;
  const payload = orElse(() => JSON.parse(input) as Payload, null);
  const dir = payload?.workspace?.current_dir ?? payload?.cwd;
  return typeof dir === 'string' && dir !== '' ? dir : fallback;
}

/**
 * Reads the state of the session's directory; never throws. `line` is the line to print (control
 * characters shown as stand-ins), `json` what `--json` prints: the facts behind it, or why there
 * are none (with the exact text).
 */
export async function statuslineReport(
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; now?: Date },
) {
  const now = options.now ?? new Date();
  try {
    const paths = findRoot(cwdFrom(input, options.cwd));
    const state = loadState({ cwd: paths.root });
    const { readStatus } = await import('../../status/read-status.js');
    const status = await readStatus({ cwd: paths.root, state, now: () => now });
    const { progress } = state;
    const { done, total } = countPlan(progress.plan ?? []);
    const facts: StatuslineValues = {
      stage: progress.stage ?? null,
      nextAction: progress.next_action ?? null,
      done,
      total,
      lastCheckpoint: progress.stamp?.last_checkpoint ?? null,
      signals: status.signals.map((signal) => signal.message),
    };
    const line = renderStatusline(facts, now);
    return {
      line: safeText(line),
      json: {
        ok: true,
        line,
        stage: facts.stage,
        next_action: facts.nextAction,
        plan: { done, total },
        last_checkpoint: facts.lastCheckpoint,
        signals: facts.signals,
      },
    };
  } catch (error) {
    const known = error instanceof AgentStateError;
    const code = known ? error.code : 'INTERNAL';
    const line = !known
      ? 'agent-state: status unavailable'
      : `agent-state: ${code === 'NOT_INITIALIZED' ? 'no .agent/ here' : error.message}`;
    const message = error instanceof Error ? error.message : String(error);
    return { line: safeText(line), json: { ok: false, line, error: { code, message } } };
  }
}

/** Reads the state of the session's directory and returns the line to print (with a newline). */
export async function runStatusline(
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; now?: Date },
): Promise<string> {
  return `${(await statuslineReport(input, options)).line}\n`;
}
