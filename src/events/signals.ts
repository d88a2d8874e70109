// Control signals: conclusions the model should not have to draw by counting ("2 searches found
// nothing new: read the files you found"). Pure: snapshot, thresholds, clock in; most urgent first.
import type { ForbiddenMatcher } from '../state/forbidden.js';
import type { Config } from '../types.js';
import type { StatusSnapshot, ToolStats } from './types.js';
import { plural } from '../text/plural.js';

export type SignalId =
  | 'search.no_new_results'
  | 'tool.repeated_failures'
  | 'budget.tool_calls_low'
  | 'budget.tokens_low'
  | 'checkpoint.overdue'
  | 'forbidden.modified'
  | 'restart.loop'
  | 'git.changed';

/** One control signal. `key` is stable while the condition holds (it keys the delta). */
export interface StatusSignal {
  id: SignalId;
  key: string;
  /** `stop`: do not continue as before; `warn`: change something soon. */
  level: 'stop' | 'warn';
  /** One sentence: the fact, then what to do. */
  message: string;
}

export type SignalThresholds = Config['signals'] & { stall_threshold: number };

export interface SignalOptions {
  now: Date;
  /** Matches Forbidden globs of goals.md; without it no forbidden signal is computed. */
  forbidden?: ForbiddenMatcher;
  /** The modified files still changed now (git's view, as `verify` sees it); a Forbidden file not
   *  in it was reverted and raises no signal. Absent: every modified file counts. */
  stillChanged?: ReadonlySet<string>;
  /** The restart-loop counter when one holds now (src/recovery/rules.ts: the last boot found one
   *  and nothing moved since), null when none does. Absent: the snapshot's count. */
  restartLoop?: number | null;
}

// `key` is the id, or `id:subject` when each subject (a tool, a path, a move) is a signal of its own.
const signal = (
  id: SignalId,
  level: StatusSignal['level'],
  message: string,
  subject?: string | number,
): StatusSignal => ({ id, key: subject === undefined ? id : `${id}:${subject}`, level, message });

// A tool's streak matters for the next decision only while that tool is the one in use: once the
// agent reads the files it found (or tries another tool), the advice has been taken.
function toolSignals(s: StatusSnapshot, t: SignalThresholds): StatusSignal[] {
  const out: StatusSignal[] = [];
  let last: [string, ToolStats] | undefined;
  for (const entry of Object.entries(s.tools))
    if (!last || entry[1].last_seq > last[1].last_seq) last = entry;
  if (last) {
    const [name, stats] = last;
    const failed = `${name} failed ${stats.consecutive_failures} times in a row: change approach instead of retrying.`;
    const nothing = `${plural(stats.no_new_results, 'call')} of ${name} in a row found nothing new: stop widening the search and read the files you found.`;
    if (stats.consecutive_failures >= t.consecutive_failures)
      out.push(signal('tool.repeated_failures', 'stop', failed, name));
    if (stats.no_new_results >= t.no_new_results)
      out.push(signal('search.no_new_results', 'warn', nothing, name));
  }
  return out;
}

function budgetSignals(s: StatusSnapshot, t: SignalThresholds): StatusSignal[] {
  const out: StatusSignal[] = [];
  const push = (id: 'budget.tool_calls_low' | 'budget.tokens_low', left: number, what: string) => {
    const spent = `The ${id === 'budget.tokens_low' ? 'token' : 'tool-call'} budget is spent: stop, checkpoint and report where you are.`;
    const message = left <= 0 ? spent : `${what} left: wrap up and checkpoint.`;
    out.push(signal(id, left <= 0 ? 'stop' : 'warn', message));
  };
  const { tool_calls: calls, tokens } = s.budget;
  if (calls.limit !== null && calls.limit - calls.used <= t.tool_calls_left) {
    const left = calls.limit - calls.used;
    push('budget.tool_calls_low', left, plural(left, 'tool call'));
  }
  if (tokens.limit !== null && tokens.limit > 0) {
    const left = tokens.limit - tokens.used;
    const percent = (left / tokens.limit) * 100;
    if (percent <= t.tokens_left_percent)
      push('budget.tokens_low', left, `${Math.max(0, Math.round(percent))}% of the token budget`);
  }
  return out;
}

function checkpointSignal(s: StatusSnapshot, t: SignalThresholds, now: Date): StatusSignal | null {
  const since = s.checkpoint?.at ?? s.first_at;
  const minutes = since ? (now.getTime() - Date.parse(since)) / 60_000 : 0;
  const byCalls = s.tool_calls_since_checkpoint >= t.checkpoint_tool_calls;
  // Time alone says nothing when no tool ran since: an idle task is not overdue.
  const byTime = minutes >= t.checkpoint_minutes && s.tool_calls_since_checkpoint > 0;
  if (!byCalls && !byTime) return null;
  const what = s.checkpoint ? 'since the last checkpoint' : 'and no checkpoint yet';
  const fact = byCalls
    ? `${s.tool_calls_since_checkpoint} tool calls ${what}`
    : `${Math.floor(minutes)} minutes ${what}`;
  const message = `${fact}: run \`agent-state checkpoint\` before going on.`;
  return signal('checkpoint.overdue', 'warn', message);
}

// A branch switch or merge after the last checkpoint means the tree may no longer be the one the
// plan and the markers describe — until a move lands back where the checkpoint left it. Before
// the first checkpoint nothing was recorded to differ from.
function gitSignal(s: StatusSnapshot): StatusSignal | null {
  const git = s.git;
  if (!git || !s.checkpoint || git.seq <= s.checkpoint.seq) return null;
  const left = s.checkpoint;
  if (left.head && git.head === left.head && git.branch === (left.branch ?? null)) return null;
  const head = git.head ? ` (${git.head.slice(0, 12)})` : '';
  const what =
    git.kind === 'checkout'
      ? `Switched to ${git.branch ? `branch ${git.branch}` : 'a detached HEAD'}${head}`
      : `A merge into ${git.branch ?? 'the detached HEAD'}${head}`;
  const message = `${what} since the last checkpoint: run \`agent-state verify\` to see what changed before going on.`;
  return signal('git.changed', 'warn', message, git.seq);
}

/** The signals that hold for `snapshot` now, most urgent first. */
export function computeSignals(
  snapshot: StatusSnapshot,
  thresholds: SignalThresholds,
  options: SignalOptions,
): StatusSignal[] {
  const signals: StatusSignal[] = [];
  if (options.forbidden) {
    for (const path of snapshot.files.modified) {
      if (options.stillChanged && !options.stillChanged.has(path)) continue;
      const hit = options.forbidden(path);
      if (!hit) continue;
      const message = `${hit.path} is in a Forbidden zone (${hit.rule}): revert the change.`;
      signals.push(signal('forbidden.modified', 'stop', message, hit.path));
    }
  }
  const loop =
    options.restartLoop === undefined
      ? snapshot.boots_since_progress >= thresholds.stall_threshold
        ? snapshot.boots_since_progress
        : null
      : options.restartLoop;
  const restarts = `${loop} restarts in a row without progress: stop repeating the last attempt; re-read the goal and ask the user if stuck.`;
  if (loop !== null) signals.push(signal('restart.loop', 'stop', restarts));
  signals.push(...toolSignals(snapshot, thresholds), ...budgetSignals(snapshot, thresholds));
  for (const one of [gitSignal(snapshot), checkpointSignal(snapshot, thresholds, options.now)])
    if (one) signals.push(one);
  return signals.sort((a, b) => (a.level === b.level ? 0 : a.level === 'stop' ? -1 : 1));
}
