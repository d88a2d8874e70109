// The one hand-written argv scanner: the router reads the command word and global options with it,
// and the lean commands parse their options from the specs that give commander their --help.
// Messages follow commander's wording, so a mistake reads the same on both routes.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExitCode } from '../error-report.js';
import { UsageError } from '../errors.js';
import type { CommandContext } from './action.js';
import type { OutputOptions } from './output.js';
import { plural } from '../text/plural.js';

/** An option as commander declares it: `-f, --field <key=value>` or `--dry-run`. */
export interface OptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string;
  /** Collect every occurrence into a list. */
  repeatable?: boolean;
  /** The option takes the next argument only when it matches (else it is a global flag). */
  valueWhen?: RegExp;
  /** Left out of commander's option list (the help text explains it). */
  hidden?: boolean;
}

/** An OptionSpec from its flags, description and the rest. */
export function option(flags: string, description: string, more?: Partial<OptionSpec>): OptionSpec {
  return { flags, description, ...more };
}

/** A positional argument. */
export interface ArgumentSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  choices?: readonly string[];
}

/** A command the lean route runs; program.ts registers the same spec with commander for --help. */
export interface CommandSpec {
  name: string;
  description: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** Shown after the option list in --help (examples, notes). */
  help: string;
}

/** The options every command takes. */
export interface GlobalFlags extends Pick<OutputOptions, 'json' | 'quiet' | 'color'> {
  cwd?: string;
  /** --agent: the acting agent's name (docs/multi-agent.md). */
  agent?: string;
}

/** One parsed call of a CommandSpec. */
export interface ParsedArgs {
  globals: GlobalFlags;
  args: string[];
  options: Record<string, string | string[] | true>;
}

/** The fix a usage mistake names, on both routes. */
export const HINT = 'see `agent-state --help` or `agent-state <command> --help`';
const GLOBAL_OPTIONS = '--cwd --json --quiet --agent --no-color --help --version'.split(' ');

interface Flag {
  spec: OptionSpec;
  long: string;
  short: string | undefined;
  /** The value's placeholder, e.g. `<level>`; undefined for a boolean flag. */
  value: string | undefined;
  /** camelCase key, as commander names it: --dry-run → dryRun. */
  key: string;
}

function flagOf(spec: OptionSpec): Flag {
  const match = /^(?:(-\w),\s*)?(--[\w-]+)(?:\s+(<[^>]+>|\[[^\]]+\]))?$/.exec(spec.flags);
  if (!match) throw new Error(`bad option flags: ${spec.flags}`);
  const long = match[2]!;
  const key = long.slice(2).replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  return { spec, long, short: match[1], value: match[3], key };
}

// Consumes a global option at argv[i]; returns the index of its last word, or -1.
function globalAt(argv: readonly string[], i: number, globals: GlobalFlags): number {
  const arg = argv[i]!;
  if (arg === '--json') globals.json = true;
  else if (arg === '-q' || arg === '--quiet') globals.quiet = true;
  else if (arg === '--no-color') globals.color = false;
  else if (arg.startsWith('--cwd=')) globals.cwd = arg.slice('--cwd='.length);
  else if (arg.startsWith('--agent=')) globals.agent = arg.slice('--agent='.length);
  else if (/^-C./.test(arg)) globals.cwd = arg.slice(2);
  else if (arg === '--agent' || arg === '-C' || arg === '--cwd') {
    const [key, label] =
      arg === '--agent' ? ['agent', '--agent <name>'] : ['cwd', '-C, --cwd <dir>'];
    if (argv[i + 1] === undefined)
      throw new UsageError(`option '${label}' argument missing`, { hint: HINT });
    globals[key as 'agent' | 'cwd'] = argv[i + 1];
    return i + 1;
  } else return -1;
  return i;
}

/** The command words (non-options, after the global options) and whether help or the version was asked. */
export function scanArgv(argv: readonly string[]): {
  words: string[];
  globals: GlobalFlags;
  help: boolean;
  version: boolean;
} {
  const globals: GlobalFlags = { json: false, quiet: false, color: true };
  const words: string[] = [];
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') help = true;
    else if ((arg === '-V' || arg === '--version') && words.length === 0) version = true;
    else if (arg === '--') break;
    else {
      let end = -1;
      try {
        end = globalAt(argv, i, globals);
      } catch {
        /* the parser proper reports it */
      }
      if (end >= 0) i = end;
      else if (!arg.startsWith('-')) words.push(arg);
    }
  }
  return { words, globals, help, version };
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3; // commander suggests within an edit distance of 2
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance (small words: a plain table is plenty). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length]!;
}

function setValue(options: ParsedArgs['options'], flag: Flag, raw: string | undefined): void {
  const label = flag.spec.flags;
  if (raw === undefined) throw new UsageError(`option '${label}' argument missing`, { hint: HINT });
  if (flag.spec.choices && !flag.spec.choices.includes(raw))
    throw new UsageError(
      `option '${label}' argument '${raw}' is invalid. Allowed choices are ${flag.spec.choices.join(', ')}.`,
      { hint: HINT },
    );
  if (flag.spec.repeatable) options[flag.key] = [...((options[flag.key] as string[]) ?? []), raw];
  else options[flag.key] = raw;
}

/** Parses a whole argv (without node and script) for `spec`. Throws UsageError. */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const globals: GlobalFlags = { json: false, quiet: false, color: true };
  const flags = (spec.options ?? []).map(flagOf);
  const options: ParsedArgs['options'] = {};
  for (const flag of flags)
    if (flag.spec.default !== undefined) options[flag.key] = flag.spec.default;
  const args: string[] = [];
  let seenCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!seenCommand && arg === spec.name) {
      seenCommand = true;
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const flag = seenCommand ? flags.find((f) => f.long === name || f.short === name) : undefined;
    if (flag?.spec.valueWhen) {
      if (eq > 0) setValue(options, flag, arg.slice(eq + 1));
      else if (flag.spec.valueWhen.test(argv[i + 1] ?? '')) setValue(options, flag, argv[++i]);
      else i = globalAt(argv, i, globals);
      continue;
    }
    if (flag) {
      if (flag.value === undefined) options[flag.key] = true;
      else setValue(options, flag, eq > 0 ? arg.slice(eq + 1) : argv[++i]);
      continue;
    }
    const end = globalAt(argv, i, globals);
    if (end >= 0) {
      i = end;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      // As the commander route says it (suggest.ts): the nearest option, the global ones too.
      const suggestion = closest(name, [...flags.map((f) => f.long), ...GLOBAL_OPTIONS]);
      throw new UsageError(`unknown option '${arg}'`, {
        hint: suggestion ? `did you mean \`${suggestion}\`? See \`agent-state --help\`` : HINT,
      });
    }
    if (!seenCommand) throw new UsageError(`unknown command '${arg}'`, { hint: HINT });
    args.push(arg);
  }
  checkArguments(spec, args);
  return { globals, args, options };
}

function checkArguments(spec: CommandSpec, args: readonly string[]): void {
  const expected = spec.arguments ?? [];
  const variadic = expected.some((a) => a.variadic);
  const max = expected.length;
  if (!variadic && args.length > max)
    throw new UsageError(
      `too many arguments for '${spec.name}'. Expected ${plural(max, 'argument')} but got ${args.length}.`,
      { hint: HINT },
    );
  expected.forEach((argument, i) => {
    const value = args[i];
    if (value === undefined) {
      if (argument.required)
        throw new UsageError(`missing required argument '${argument.name}'`, { hint: HINT });
    } else if (argument.choices && !argument.choices.includes(value))
      throw new UsageError(
        `command-argument value '${value}' is invalid for argument '${argument.name}'. Allowed choices are ${argument.choices.join(', ')}.`,
        { hint: HINT },
      );
  });
}

/** The directory a call runs in: --cwd resolved from io.cwd, or io.cwd. Throws UsageError when it does not exist. */
export function resolveCwd(cwd: string | undefined, io: { readonly cwd?: string }): string {
  const dir = io.cwd === undefined ? resolve(cwd ?? process.cwd()) : resolve(io.cwd, cwd ?? '.');
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--cwd ${cwd}: no such directory`, { hint: 'pass an existing directory' });
  return dir;
}

/** A command of the lean route: its spec (options, help) and what it does. */
export interface LeanCommand {
  spec: CommandSpec;
  run(parsed: ParsedArgs, ctx: CommandContext): Promise<ExitCode>;
}
