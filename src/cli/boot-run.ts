// What `boot` does once its options are parsed, shared by the commander command and the fast
// path (boot-cli.ts): check the options, boot, build the JSON document, record the boot event.
import { bootDocument, type BootDocument } from '../boot/boot-document.js';
import { boot } from '../boot/boot.js';
import { omittedFact } from '../boot/omitted-fact.js';
import type { BootFormat, BootRole, BootSource } from '../boot/types.js';
import { UsageError } from '../errors.js';
import type { EventInput } from '../events/types.js';
import type { Warning } from '../types.js';

/**
 * Records the boot in the event log and returns the warnings to show. A parameter because the
 * full program and the fast path each record through their own bundle of the log code (the log
 * appender resolves a file relative to the bundle it is in).
 */
export type RecordBoot = (input: EventInput) => Promise<Warning[]>;

/** The options of `boot` as given on the command line. */
export interface BootFlags {
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

/** Runs `boot`; returns the text to print, the JSON document and the warnings. */
export async function runBoot(
  flags: BootFlags,
  ctx: { cwd: string; env: NodeJS.ProcessEnv; now: () => Date },
  record: RecordBoot,
): Promise<{ text: string; json: BootDocument; warnings: Warning[] }> {
  const level = parseLevel(flags.level);
  const budget = parseBudget(flags.budget);
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
    : await record({
        type: 'boot',
        level: result.level,
        ...(result.source ? { source: result.source } : {}),
        omitted: omittedFact(result.omitted),
      });
  return {
    text: result.format === 'json' ? `${JSON.stringify(json, null, 2)}\n` : result.text,
    json,
    warnings: [...result.warnings, ...logged],
  };
}
