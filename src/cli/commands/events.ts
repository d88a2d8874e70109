// `agent-state events`: read the event log back, filtered.
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';
import { readEvents } from '../../events/read-log.js';
import type { AgentEvent } from '../../events/types.js';
import { findRoot } from '../../state/find-root.js';

interface EventsFlags {
  since?: string;
  type?: string[];
  limit?: string;
  all?: boolean;
}

const COMMON = new Set(['seq', 'at', 'type', 'actor']);

function count(raw: string | undefined, option: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(
      `${option} must be a whole number${min > 0 ? ` of ${min} or more` : ''} (got "${raw}")`,
      { hint: `for example ${option} ${min > 0 ? 20 : 100}` },
    );
  return Number(raw);
}

function fieldText(value: unknown): string {
  if (typeof value === 'string')
    return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 59)}…` : json;
}

/** One line per event: seq, time, type, actor, then the other fields as key=value. */
export function formatEvent(event: AgentEvent): string {
  const fields = Object.entries(event)
    .filter(([k]) => !COMMON.has(k))
    .map(([k, v]) => `${k}=${fieldText(v)}`);
  return [`#${event.seq}`, event.at, event.type, `(${event.actor})`, ...fields].join('  ');
}

export function registerEvents(program: AgentCommand): void {
  program
    .command('events')
    .description('list events of the log (oldest first)')
    .option('--since <seq>', 'only events after this seq')
    .option('--type <type...>', 'only these types (`tool.*` matches a prefix)')
    .option('--limit <n>', 'only the newest N')
    .option('--all', 'include the rotated logs (events.N.jsonl)')
    .helpAfter(
      '\nExamples:\n  $ agent-state events --limit 20\n  $ agent-state events --type "tool.*" --since 120 --json',
    )
    .run<EventsFlags>((ctx, _args, flags) => {
      const query = {
        since: count(flags.since, '--since', 0),
        limit: count(flags.limit, '--limit', 1),
        types: flags.type?.flatMap((t) => t.split(',')).filter(Boolean),
        all: flags.all === true,
      };
      const { events, warnings } = readEvents(findRoot(ctx.cwd), query);
      return {
        text: events.length ? events.map(formatEvent).join('\n') : '(no events)',
        json: { events, warnings },
        warnings,
      };
    });
}
