// The fast path of `agent-state event`: hooks call it after every tool call, so it loads no
// commander, chalk or YAML (≈ 70 ms saved per call). Output and errors follow main.ts exactly:
// one line on stderr `agent-state: <message> (fix: <hint>)`, and the JSON error document with --json.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentStateError } from '../errors.js';
import { parseEventArgv } from './event-args.js';
import { describeRecorded, runEvent } from './event-run.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { reportError } from './report-error.js';
import { safeJson, safeText } from '../text/safe-text.js';

/** Runs `event` from a raw argv (without node and script); returns the exit code. */
export async function runEventCli(argv: readonly string[]): Promise<ExitCode> {
  let json = argv.includes('--json');
  try {
    const args = parseEventArgv(argv);
    json = args.json;
    const cwd = resolve(args.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory())
      throw new AgentStateError('USAGE', `--cwd ${args.cwd}: no such directory`, {
        hint: 'pass an existing directory',
      });
    const events = await runEvent(args, {
      cwd,
      now: () => new Date(),
      readStdin: () => readFileSync(0, 'utf8'),
    });
    if (args.json) process.stdout.write(`${safeJson({ events }, 2)}\n`);
    else if (!args.quiet) process.stdout.write(`${safeText(describeRecorded(events))}\n`);
    return EXIT.OK;
  } catch (error) {
    return reportError(json, error);
  }
}
