// `agent-state boot`: the restart prompt. The boot library (and the tokenizer it loads) is
// imported only when this command runs, so other commands do not pay for it at start-up.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { bootDocument } from '../../boot/boot-document.js';
import {
  BOOT_FORMATS,
  BOOT_ROLES,
  BOOT_SOURCES,
  type BootFormat,
  type BootRole,
  type BootSource,
} from '../../boot/types.js';
import { defineAction, type RunState } from '../action.js';
import { recordFact } from '../record.js';

interface BootFlags {
  level?: string;
  budget?: string;
  format?: BootFormat;
  role?: BootRole;
  source?: BootSource;
  dryRun?: boolean;
  fast?: boolean;
}

function parseLevel(value: string | undefined): 1 | 2 | 3 | 'auto' | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return 'auto';
  if (value === '1' || value === '2' || value === '3') return Number(value) as 1 | 2 | 3;
  throw new UsageError(`--level ${value} is not a recovery level`, {
    hint: 'use 1 (resume), 2 (restore), 3 (rebuild) or auto',
  });
}

function parseBudget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const budget = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(budget) || budget < 1) {
    throw new UsageError(`--budget ${value} is not a token count`, {
      hint: 'give a whole number of tokens: --budget 4000',
    });
  }
  return budget;
}

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
    .option('--dry-run', 'print the prompt without stamping the boot or consuming reminders')
    .option(
      '--fast',
      'estimate tokens (ascii/4 + CJK + other/2) instead of loading the o200k tokenizer',
    )
    .addHelpText(
      'after',
      `
Levels: 1 resume (a few hundred tokens), 2 restore (+ plan, markers, memory, evidence headlines),
3 rebuild (+ evidence bodies, drift, stale markers). auto: 3 when the tree drifted, a marker is
stale or the agent is in a restart loop; otherwise 2.

Examples:
  $ agent-state boot
  $ agent-state boot --level 1 --source compact
  $ agent-state boot --budget 4000 --format xml --role review
  $ agent-state boot --dry-run --json | jq .tokens`,
    )
    .action(
      defineAction<BootFlags>(state, async (ctx, _args, flags) => {
        const level = parseLevel(flags.level);
        const budget = parseBudget(flags.budget);
        const { boot } = await import('../../boot/boot.js');
        const result = await boot({
          cwd: ctx.cwd,
          env: ctx.env,
          now: ctx.now,
          level,
          budget,
          format: flags.format,
          role: flags.role,
          source: flags.source,
          dryRun: flags.dryRun === true,
          fast: flags.fast === true,
        });
        const json = bootDocument(result, { dryRun: result.dryRun, stamp: result.stamp });
        // The status bar counts boots (its restart.loop signal) from the event log.
        const logged = result.dryRun
          ? []
          : await recordFact(ctx, {
              type: 'boot',
              level: result.level,
              ...(result.source ? { source: result.source } : {}),
            });
        return {
          text: result.format === 'json' ? JSON.stringify(json, null, 2) : result.text,
          json,
          warnings: [...result.warnings, ...logged],
        };
      }),
    );
}
