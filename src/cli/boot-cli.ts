// The fast path of `agent-state boot`: hosts run it at every session start and compaction, so it
// loads no commander or chalk (≈ 25 ms less per boot). Output, warnings and errors are those of
// the full program (its --help still goes there; see entry.ts).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { findRoot } from '../state/find-root.js';
import { formatWarning } from './action.js';
import { parseBootArgv } from './boot-args.js';
import { runBoot } from './boot-run.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { reportError } from './report-error.js';
import { safeJson } from '../text/safe-text.js';

/** Runs `boot` from a raw argv (without node and script); returns the exit code. */
export async function runBootCli(argv: readonly string[]): Promise<ExitCode> {
  let json = argv.includes('--json');
  try {
    const args = parseBootArgv(argv);
    json = args.json;
    const cwd = resolve(args.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory())
      throw new UsageError(`--cwd ${args.cwd}: no such directory`, {
        hint: 'pass an existing directory',
      });
    const ctx = { cwd, env: process.env, now: () => new Date() };
    const result = await runBoot(args, ctx, async (input) => {
      const { warning } = await recordEvent(findRoot(cwd), input, ctx);
      return warning ? [warning] : [];
    });
    if (!args.json && !args.quiet) {
      for (const warning of result.warnings)
        process.stderr.write(`warning: ${formatWarning(warning)}\n`);
    }
    if (args.json) process.stdout.write(`${safeJson(result.json, 2)}\n`);
    else if (!args.quiet) process.stdout.write(result.text);
    return EXIT.OK;
  } catch (error) {
    return reportError(json, error);
  }
}
