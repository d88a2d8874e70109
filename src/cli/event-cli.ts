// The fast path of `agent-state event`: hooks call it after every tool call, so it loads no
// commander, chalk or YAML (≈ 70 ms saved per call). Output and errors follow main.ts exactly:
// one line on stderr `agent-state: <message> (fix: <hint>)`, and the JSON error document with --json.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentStateError, formatLocation } from '../errors.js';
import { parseEventArgv } from './event-args.js';
import { describeRecorded, runEvent } from './event-run.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';

function report(json: boolean, code: ExitCode, error: AgentStateError | Error): void {
  const typed = error instanceof AgentStateError && error.code !== 'INTERNAL' ? error : null;
  const message = typed ? error.message : `internal error: ${error.message}`;
  const hint = typed
    ? typed.hint
    : 'this is a bug; please report it at https://github.com/agent-state/agent-state/issues with the command you ran and `agent-state --version`';
  const where = typed?.location ? `${formatLocation(typed.location)}: ` : '';
  process.stderr.write(`agent-state: ${where}${message}${hint ? ` (fix: ${hint})` : ''}\n`);
  if (json) {
    const doc = {
      error: {
        code: typed?.code ?? 'INTERNAL',
        exit_code: code,
        message,
        ...(typed?.location ?? {}),
        hint: hint ?? null,
        ...(typed?.details === undefined ? {} : { details: typed.details }),
      },
    };
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
  if (!typed && process.env.AGENT_STATE_DEBUG) process.stderr.write(`${error.stack ?? ''}\n`);
}

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
    if (args.json) process.stdout.write(`${JSON.stringify({ events }, null, 2)}\n`);
    else if (!args.quiet) process.stdout.write(`${describeRecorded(events)}\n`);
    return EXIT.OK;
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    const code = err instanceof AgentStateError ? exitCodeFor(err.code) : EXIT.INTERNAL;
    report(json, code, err);
    return code;
  }
}
