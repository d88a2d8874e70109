// Parsing `agent-state [global options] boot [options]` without commander, for the fast path
// (boot-cli.ts): hosts boot the agent at every session start and compaction. The options and the
// messages are those of the commander command in commands/boot.ts.
import { BOOT_FORMATS, BOOT_ROLES, BOOT_SOURCES } from '../boot/types.js';
import { UsageError } from '../errors.js';
import type { BootFlags } from './boot-run.js';

export interface BootArgs extends BootFlags {
  /** Global options. */
  cwd?: string;
  json: boolean;
  quiet: boolean;
}

const HINT = 'see `agent-state --help` or `agent-state <command> --help`';

const VALUED: Record<
  string,
  {
    key: 'level' | 'budget' | 'format' | 'role' | 'source' | 'cwd' | 'agent';
    label: string;
    choices?: readonly string[];
  }
> = {
  '--level': { key: 'level', label: '--level <level>' },
  '--budget': { key: 'budget', label: '--budget <tokens>' },
  '--format': { key: 'format', label: '--format <format>', choices: BOOT_FORMATS },
  '--role': { key: 'role', label: '--role <role>', choices: BOOT_ROLES },
  '--source': { key: 'source', label: '--source <source>', choices: BOOT_SOURCES },
  '--cwd': { key: 'cwd', label: '-C, --cwd <dir>' },
  '-C': { key: 'cwd', label: '-C, --cwd <dir>' },
  '--agent': { key: 'agent', label: '--agent <name>' },
};

function set(args: BootArgs, option: string, raw: string | undefined): void {
  const spec = VALUED[option]!;
  if (raw === undefined)
    throw new UsageError(`option '${spec.label}' argument missing`, { hint: HINT });
  if (spec.choices && !spec.choices.includes(raw)) {
    throw new UsageError(
      `option '${spec.label}' argument '${raw}' is invalid. Allowed choices are ${spec.choices.join(', ')}.`,
      { hint: HINT },
    );
  }
  (args as unknown as Record<string, string>)[spec.key] = raw;
}

/** Parses a whole argv whose command word is `boot`. Throws UsageError. */
export function parseBootArgv(argv: readonly string[]): BootArgs {
  const args: BootArgs = { json: false, quiet: false, format: 'markdown', role: 'execution' };
  let seenCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : /^-C./.test(arg) ? '-C' : arg;
    if (VALUED[name]) {
      if (eq > 0) set(args, name, arg.slice(eq + 1));
      else if (name === '-C' && arg !== '-C') set(args, name, arg.slice(2));
      else set(args, name, argv[++i]);
    } else if (arg === '--json') args.json = true;
    else if (arg === '-q' || arg === '--quiet') args.quiet = true;
    else if (arg === '--no-color') continue;
    else if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--fast') args.fast = true;
    else if (arg === 'boot' && !seenCommand) seenCommand = true;
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`, { hint: HINT });
    else {
      throw new UsageError(`too many arguments for 'boot'. Expected 0 arguments but got 1.`, {
        hint: HINT,
      });
    }
  }
  return args;
}
