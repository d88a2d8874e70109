// Parsing `agent-state [global options] event [TYPE] [--field k=v ...] [--json JSON] [--stdin]
// [--actor A]` without commander: hooks run `event` after every tool call, so it takes a fast
// path that loads no option parser (see entry.ts). `--json` after TYPE followed by a JSON object
// is the event's fields; anywhere else it asks for JSON output, as for every command.
import { checkAgentName } from '../agents/agent-name.js';
import { UsageError } from '../errors.js';
import type { EventActor } from '../events/types.js';
import { EVENT_ACTORS } from '../events/types.js';

export interface EventArgs {
  /** Global options. */
  cwd?: string;
  json: boolean;
  quiet: boolean;
  /** The event type (may instead come from the JSON fields). */
  type?: string;
  /** --field values, coerced. */
  fields: Record<string, unknown>;
  /** --json JSON: the fields as one object (text, parsed later to report errors well). */
  payload?: string;
  /** Read the fields from stdin: one JSON object, or one per line (several events). */
  stdin: boolean;
  actor?: EventActor;
}

/** `true`, `false`, numbers and `null` as such; anything else a string. */
export function coerceFieldValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function parseField(raw: string | undefined): [string, unknown] {
  const eq = raw?.indexOf('=') ?? -1;
  if (raw === undefined || eq <= 0)
    throw new UsageError(`--field needs key=value${raw === undefined ? '' : ` (got "${raw}")`}`, {
      hint: 'for example --field name=grep --field new_results=0',
    });
  return [raw.slice(0, eq), coerceFieldValue(raw.slice(eq + 1))];
}

function value(argv: readonly string[], i: number, option: string): string {
  const v = argv[i + 1];
  if (v === undefined)
    throw new UsageError(`option ${option} needs a value`, {
      hint: 'see `agent-state event --help`',
    });
  return v;
}

// Global options before or after the command word; false when `arg` is none of them.
function globalOption(args: EventArgs, argv: readonly string[], i: number): number | false {
  const arg = argv[i]!;
  if (arg === '-q' || arg === '--quiet') args.quiet = true;
  else if (arg === '--no-color') return i;
  else if (arg === '-C' || arg === '--cwd') {
    args.cwd = value(argv, i, arg);
    return i + 1;
  } else if (arg.startsWith('--cwd=')) args.cwd = arg.slice(6);
  else if (/^-C./.test(arg)) args.cwd = arg.slice(2);
  else if (arg === '--agent') {
    // The event log is the worktree's (shared by the agents working in it): the name is checked
    // as everywhere else, and the log does not split by it.
    checkAgentName(value(argv, i, arg), '--agent');
    return i + 1;
  } else if (arg.startsWith('--agent=')) checkAgentName(arg.slice(8), '--agent');
  else return false;
  return i;
}

/** Parses a whole argv whose command word is `event`. Throws UsageError. */
export function parseEventArgv(argv: readonly string[]): EventArgs {
  const args: EventArgs = { json: false, quiet: false, fields: {}, stdin: false };
  let seenCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = globalOption(args, argv, i);
    if (next !== false) {
      i = next;
      continue;
    }
    if (arg === '--json') {
      const v = argv[i + 1];
      if (seenCommand && v !== undefined && v.trimStart().startsWith('{')) {
        args.payload = v;
        i++;
      } else args.json = true;
    } else if (arg.startsWith('--json=')) args.payload = arg.slice(7);
    else if (!seenCommand) {
      if (arg !== 'event')
        throw new UsageError(`unknown option ${arg}`, { hint: 'see `agent-state --help`' });
      seenCommand = true;
    } else if (arg === '-f' || arg === '--field') {
      const [k, v] = parseField(argv[++i]);
      args.fields[k] = v;
    } else if (arg.startsWith('--field=')) {
      const [k, v] = parseField(arg.slice(8));
      args.fields[k] = v;
    } else if (arg === '--stdin') args.stdin = true;
    else if (arg === '--actor' || arg.startsWith('--actor=')) {
      const actor = arg === '--actor' ? value(argv, i++, arg) : arg.slice(8);
      if (!EVENT_ACTORS.includes(actor as EventActor))
        throw new UsageError(`--actor must be one of ${EVENT_ACTORS.join(', ')} (got "${actor}")`, {
          hint: 'for example --actor user',
        });
      args.actor = actor as EventActor;
    } else if (arg.startsWith('-'))
      throw new UsageError(`unknown option ${arg} for event`, {
        hint: 'see `agent-state event --help`',
      });
    else if (args.type === undefined) args.type = arg;
    else
      throw new UsageError(`unexpected argument "${arg}"`, {
        hint: 'give one TYPE; fields go in --field key=value',
      });
  }
  return args;
}
