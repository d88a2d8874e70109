// `agent-state boot`: the restart prompt. The boot library (and the tokenizer it loads) is
// imported only when this command runs, so other commands do not pay for it at start-up. Hosts
// reach `boot` through the fast path (boot-cli.ts); this is its --help and the fallback.
import { Option, type Command } from 'commander';
import { BOOT_FORMATS, BOOT_ROLES, BOOT_SOURCES } from '../../boot/types.js';
import { defineAction, type RunState } from '../action.js';
import type { BootFlags } from '../boot-run.js';
import { recordFact } from '../record.js';

export function registerBoot(program: Command, state: RunState): void {
  program
    .command('boot')
    .description(
      'print the restart prompt: goal, boundaries, progress and next step, within a token budget',
    )
    .addOption(
      new Option(
        '--level <level>',
        'recovery level: 1 resume, 2 restore, 3 rebuild, auto (default: config boot.level)',
      ),
    )
    .option('--budget <tokens>', 'total token budget (default: config budget.total)')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices([...BOOT_FORMATS])
        .default('markdown'),
    )
    .addOption(
      new Option('--role <role>', 'who reads it').choices([...BOOT_ROLES]).default('execution'),
    )
    .addOption(
      new Option('--source <source>', 'why the host boots the agent').choices([...BOOT_SOURCES]),
    )
    .option('--dry-run', 'print the prompt without counting the boot or consuming reminders')
    .option(
      '--fast',
      'estimate tokens (ascii/4 + CJK + other/2) instead of loading the o200k tokenizer',
    )
    .addHelpText(
      'after',
      `
Levels: 1 resume (a few hundred tokens), 2 restore (+ plan, markers, memory, evidence headlines),
3 rebuild (+ evidence bodies, the changes that are not yours). auto: 3 only for foreign drift (a
change no recorded fact of yours explains) or a restart loop (boot.stall_threshold boots in a row
with no progress); else 1 for --source resume, 2 otherwise. Your uncheckpointed changes and stale
markers are named at every level. A boot counts itself in .agent/log/recovery.json (local) and
writes nothing under .agent/state/.

Examples:
  $ agent-state boot
  $ agent-state boot --level 1 --source compact
  $ agent-state boot --budget 4000 --format xml --role review
  $ agent-state boot --dry-run --json | jq .tokens`,
    )
    .action(
      defineAction<BootFlags>(state, async (ctx, _args, flags) => {
        const { runBoot } = await import('../boot-run.js');
        return runBoot(flags, ctx, (input) => recordFact(ctx, input));
      }),
    );
}
