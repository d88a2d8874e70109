// One timeline line per event (pure): what kind of fact it is and what happened, in words. The
// fields are whatever a producer wrote, so nothing is assumed about their types.
import type { AgentEvent } from '../events/types.js';
import type { ForbiddenHit, ForbiddenMatcher } from '../state/forbidden.js';
import type { UiEvent, UiEventKind } from './model.js';
import { plural } from '../text/plural.js';

const MAX_SUMMARY = 300;
const MAX_RAW = 20_000;
const COMMON = new Set(['seq', 'at', 'type', 'actor']);

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const short = (sha: unknown): string | null => str(sha)?.slice(0, 12) ?? null;
// A field's value between `before` and `after`, or null when the field says nothing.
const says = (before: string, v: unknown, after = ''): string | null => {
  const s = str(v);
  return s && `${before}${s}${after}`;
};

const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

function join(...parts: (string | null | false | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

// Every field but the common ones, as k=v: what an event of an unknown type says.
function fields(e: AgentEvent): string {
  return Object.entries(e)
    .filter(([k]) => !COMMON.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

function toolSummary(e: AgentEvent): string {
  const name = str(e.name) ?? '(a tool)';
  if (e.type === 'tool.started') return `${name} started`;
  const found = typeof e.new_results === 'number' ? `${e.new_results} new results` : null;
  const how = e.ok === false ? 'failed' : 'finished';
  return join(`${name} ${how}`, found, str(e.error) ?? str(e.message), str(e.artifact));
}

function testSummary(e: AgentEvent): string {
  const counted = typeof e.passed === 'number' || typeof e.failed === 'number';
  const result = counted
    ? `${str(e.passed) ?? 0} passed, ${str(e.failed) ?? 0} failed`
    : e.exit_code === null || e.exit_code === undefined
      ? null
      : `exit ${str(e.exit_code)}`;
  return join(str(e.command) ?? 'tests', result, str(e.artifact));
}

function bootSummary(e: AgentEvent): string {
  const omitted = Array.isArray(e.omitted)
    ? e.omitted.length === 0
      ? 'nothing left out'
      : `left out ${plural(e.omitted.length, 'kind')} of content`
    : null;
  return join(`level ${str(e.level) ?? '?'}`, says('after ', e.source), omitted);
}

type Describe = (e: AgentEvent) => string;

const SUMMARIES: Record<string, Describe> = {
  'tool.started': toolSummary,
  'tool.finished': toolSummary,
  'verification.finished': testSummary,
  boot: bootSummary,
  compaction: (e) => join(str(e.trigger) ?? str(e.reason), str(e.host)),
  'checkpoint.created': (e) =>
    join(str(e.summary), says('commit ', short(e.commit)), str(e.evidence)),
  'task.created': (e) => join(str(e.goal)),
  'task.updated': (e) =>
    join(
      says('goal: ', e.goal),
      says('stage: ', e.stage),
      says('next: ', e.next_action),
      e.current_step === '' ? 'current step cleared' : says('step: ', e.current_step),
    ),
  'plan.updated': (e) =>
    join(str(e.item) && `${str(e.item)} → ${e.removed ? 'removed' : str(e.status)}`, str(e.title)),
  'step.started': (e) => join(str(e.step), str(e.title)),
  'step.completed': (e) => join(str(e.step), str(e.title)),
  'cwd.changed': (e) => join(str(e.cwd)),
  'permission.requested': (e) => join(str(e.tool), str(e.permission)),
  'permission.granted': (e) => join(str(e.tool), str(e.permission)),
  'permission.denied': (e) => join(str(e.tool), str(e.permission)),
  error: (e) => join(str(e.message)),
  'budget.set': (e) => join(says('', e.tool_calls, ' tool calls'), says('', e.tokens, ' tokens')),
  usage: (e) => join(says('', e.tokens, ' tokens')),
  'git.checkout': (e) =>
    join(`switched to ${str(e.branch) ?? 'a detached HEAD'}`, short(e.to) ?? null),
  'git.merge': (e) => join(`merge into ${str(e.branch) ?? 'the detached HEAD'}`, short(e.head)),
  'log.rotated': (e) => join('log rotated', says('older events: ', e.previous)),
  'evidence.added': (e) => join(str(e.evidence), str(e.kind), str(e.summary)),
};

function kindOf(e: AgentEvent, forbidden: ForbiddenHit | null): UiEventKind {
  const t = e.type;
  if (t.startsWith('tool.')) return e.ok === false ? 'failure' : 'tool';
  if (t === 'error') return 'failure';
  if (t === 'file.modified') return forbidden ? 'forbidden' : 'file';
  if (t === 'permission.denied') return 'denied';
  if (t === 'boot') return 'boot';
  if (t === 'compaction') return 'compaction';
  if (t === 'checkpoint.created') return 'checkpoint';
  if (t === 'verification.finished')
    return (typeof e.failed === 'number' && e.failed > 0) ||
      (typeof e.exit_code === 'number' && e.exit_code !== 0)
      ? 'failure'
      : 'test';
  if (/^(task|plan|step)\./.test(t)) return 'task';
  return 'other';
}

/** The timeline line of one event; `isForbidden` flags edits of Forbidden paths. */
export function describeEvent(e: AgentEvent, isForbidden?: ForbiddenMatcher): UiEvent {
  const path = e.type === 'file.modified' ? str(e.path) : null;
  const hit = path && isForbidden ? isForbidden(path) : null;
  let summary: string;
  if (path !== null) summary = join(path, str(e.tool), hit && `Forbidden: ${hit.rule}`);
  else summary = (Object.hasOwn(SUMMARIES, e.type) ? SUMMARIES[e.type]!(e) : '') || fields(e);
  const raw = JSON.stringify(e, null, 2);
  return {
    seq: e.seq,
    at: typeof e.at === 'string' ? e.at : '',
    type: e.type,
    actor: typeof e.actor === 'string' ? e.actor : '',
    kind: kindOf(e, hit),
    summary: clip(summary, MAX_SUMMARY),
    raw: clip(raw, MAX_RAW),
  };
}
