// `agent-state boot` (lean: hosts run it at every session start and compaction): the restart
// prompt; the boot library, with the tokenizer it may load, is imported only when it runs.
import { BOOT_FORMATS, BOOT_ROLES, BOOT_SOURCES } from '../../boot/types.js';
import type { BootFormat, BootRole, BootSource } from '../../boot/types.js';
import { EXIT } from '../../error-report.js';
import { UsageError } from '../../errors.js';
import { findRepo } from '../../state/find-root.js';
import { option, type LeanCommand } from '../parse-args.js';
import { recordFact } from '../record.js';
import { formatWarning } from '../action.js';

function parseLevel(value: string | undefined): 1 | 2 | 3 | 'auto' | undefined {
  if (value === undefined || value === 'auto') return value;
  if (value === '1' || value === '2' || value === '3') return Number(value) as 1 | 2 | 3;
  throw new UsageError(`--level ${value} is not a recovery level`, {
    hint: 'use 1 (resume), 2 (restore), 3 (rebuild) or auto',
  });
}

function parseBudget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const budget = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(budget) || budget < 1)
    throw new UsageError(`--budget ${value} is not a token count`, {
      hint: 'give a whole number of tokens: --budget 4000',
    });
  return budget;
}

export const bootCommand: LeanCommand = {
  spec: {
    name: 'boot',
    description:
      'print the restart prompt: goal, boundaries, progress and next step, within a token budget',
    options: [
      option(
        '--level <level>',
        'recovery level: 1 resume, 2 restore, 3 rebuild, auto (default: config boot.level)',
      ),
      option('--budget <tokens>', 'total token budget (default: config budget.total)'),
      option('--format <format>', 'output format', { choices: BOOT_FORMATS, default: 'markdown' }),
      option('--role <role>', 'who reads it', { choices: BOOT_ROLES, default: 'execution' }),
      option('--source <source>', 'why the host boots the agent', { choices: BOOT_SOURCES }),
      option('--dry-run', 'print the prompt without counting the boot or consuming reminders'),
      option(
        '--fast',
        'estimate tokens (ascii/4 + CJK + other/2) instead of loading the o200k tokenizer',
      ),
    ],
    help: `
Levels: 1 resume (a few hundred tokens), 2 restore (+ plan, markers, memory, evidence headlines),
3 rebuild (+ evidence bodies, the changes that are not yours). auto: 3 only for foreign drift (a
branch switch, commits made elsewhere, a reset, an edit your recording hooks did not see) or a
restart loop (boot.stall_threshold boots in a row with no progress); else 1 for --source resume,
2 otherwise. Your uncheckpointed changes, unrecorded changes (no host hooks) and stale markers are
named at every level. A boot counts itself in .agent/log/recovery.json (local) and
writes nothing under .agent/state/.

Examples:
  $ agent-state boot
  $ agent-state boot --level 1 --source compact
  $ agent-state boot --budget 4000 --format xml --role review
  $ agent-state boot --dry-run --json | jq .tokens`,
  },

  async run({ options }, ctx) {
    const level = parseLevel(options.level as string | undefined);
    const budget = parseBudget(options.budget as string | undefined);
    const [{ boot }, { bootDocument }, { bootFact }] = await Promise.all([
      import('../../boot/boot.js'),
      import('../../boot/boot-document.js'),
      import('../../boot/boot-fact.js'),
    ]);
    // Found once: the boot and the record of it share it.
    const repo = findRepo(ctx.cwd);
    const result = await boot({
      ...ctx,
      repo,
      level,
      budget,
      format: options.format as BootFormat,
      role: options.role as BootRole,
      source: options.source as BootSource | undefined,
      dryRun: options.dryRun === true,
      fast: options.fast === true,
    });
    const json = bootDocument(result, { dryRun: result.dryRun, stamp: result.stamp });
    // The event log keeps every boot with the level, its reason and the loop counter.
    const logged = result.dryRun
      ? []
      : await recordFact({ ...ctx, paths: repo.paths }, bootFact(result));
    for (const warning of [...result.warnings, ...logged]) ctx.out.warn(formatWarning(warning));
    if (ctx.out.json) ctx.out.printJson(json);
    else ctx.out.print(result.format === 'json' ? JSON.stringify(json, null, 2) : result.text);
    return EXIT.OK;
  },
};
