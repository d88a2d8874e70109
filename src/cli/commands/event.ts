// `agent-state event TYPE ...`: append one fact to the event log. Real invocations take the fast
// path in entry.ts (no commander); this registration gives `--help` and the command list, and
// runs the same code if the fast path was bypassed.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { KNOWN_EVENT_TYPES } from '../../events/types.js';
import { defineAction, type RunState } from '../action.js';
import { parseEventArgv } from '../event-args.js';
import { describeRecorded, runEvent } from '../event-run.js';

export function registerEvent(program: Command, state: RunState): void {
  program
    .command('event')
    .argument('[type]', 'the event type (tool.finished, cwd.changed, ...; may come from the JSON)')
    .description('append one event (a fact: a tool call, a cwd change, a test run) to the log')
    .option(
      '-f, --field <key=value>',
      'a field (repeatable); true/false/null and numbers are typed',
    )
    .option(
      '--stdin',
      'read the fields from stdin: a JSON object, or one per line (several events)',
    )
    .option('--actor <actor>', 'who caused it: user, agent, system or tool (default from the type)')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      `
  --json JSON            the fields as one JSON object (after TYPE; a bare --json asks for JSON output)

Known types (others are kept and ignored by the status):
  ${KNOWN_EVENT_TYPES.filter((t) => t !== 'log.rotated').join(', ')}
Fields of each type: docs/status-bar.md. seq is assigned by the log; at defaults to now.

Examples:
  $ agent-state event tool.finished --field name=grep --field new_results=0
  $ agent-state event verification.finished --json '{"passed":41,"failed":1,"artifact":".agent/artifacts/test.log"}'
  $ agent-state event cwd.changed --field cwd=services/payment
  $ agent-state event budget.set --field tool_calls=40 --field tokens=200000
  $ cat events.jsonl | agent-state event --stdin`,
    )
    .action(
      defineAction(state, async (ctx) => {
        const events = await runEvent(parseEventArgv(process.argv.slice(2)), {
          cwd: ctx.cwd,
          now: ctx.now,
          readStdin: () => readFileSync(0, 'utf8'),
        });
        return { text: describeRecorded(events), json: { events } };
      }),
    );
}
