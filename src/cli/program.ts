// The commander program: global options and every command, one file each under commands/.
import { Command, Option } from 'commander';
import { AGENT_ENV, checkAgentName } from '../state/agent-name.js';
import { packageVersion } from '../package-root.js';
import type { RunState } from './action.js';
import { withSuggestion } from './suggest.js';
import { bootCommand } from './commands/boot.js';
import { eventCommand } from './commands/event.js';
import { hookCommand } from './commands/hook.js';
import { statuslineCommand } from './commands/statusline.js';
import { runLean } from './lean.js';
import type { LeanCommand } from './parse-args.js';
import { COMMANDS, isLean, type CommandWord, type LeanWord } from './command-list.js';
import { registerDoctor } from './commands/doctor.js';
import { registerGoal } from './commands/goal.js';
import { registerInit } from './commands/init.js';
import { registerIntegrate } from './commands/integrate.js';
import { registerMcp } from './commands/mcp.js';
import { registerMergeDriver } from './commands/merge-driver.js';
import { registerNext } from './commands/next.js';
import { registerPlan } from './commands/plan.js';
import { statusCommand } from './commands/status.js';
import { registerValidate } from './commands/validate.js';
import { registerHooks } from './commands/hooks.js';
import { registerWatch } from './commands/watch.js';
import { registerEvents } from './commands/events.js';
import { registerCheck } from './commands/check.js';
import { registerCheckpoint } from './commands/checkpoint.js';
import { registerDone } from './commands/done.js';
import { registerEvidence } from './commands/evidence.js';
import { registerFingerprint } from './commands/fingerprint.js';
import { registerUndone } from './commands/undone.js';
import { registerVerify } from './commands/verify.js';
import { registerRemind } from './commands/remind.js';
import { registerMemory } from './commands/memory.js';
import { registerCurrent } from './commands/current.js';
import { registerUi } from './commands/ui.js';
import { registerReport } from './commands/report.js';
import { registerImport } from './commands/import.js';

type Register = (program: Command, state: RunState) => void;

// What registers each command with commander; the lean ones from their specs.
const REGISTER: Record<Exclude<CommandWord, LeanWord>, Register> = {
  doctor: registerDoctor,
  goal: registerGoal,
  init: registerInit,
  integrate: registerIntegrate,
  mcp: registerMcp,
  'merge-driver': registerMergeDriver,
  next: registerNext,
  plan: registerPlan,
  validate: registerValidate,
  hooks: registerHooks,
  watch: registerWatch,
  events: registerEvents,
  check: registerCheck,
  checkpoint: registerCheckpoint,
  done: registerDone,
  evidence: registerEvidence,
  fingerprint: registerFingerprint,
  undone: registerUndone,
  verify: registerVerify,
  remind: registerRemind,
  memory: registerMemory,
  current: registerCurrent,
  ui: registerUi,
  report: registerReport,
  import: registerImport,
};
const LEAN: Record<LeanWord, LeanCommand> = {
  hook: hookCommand,
  statusline: statuslineCommand,
  event: eventCommand,
  boot: bootCommand,
  status: statusCommand,
};

// A lean command (lean.ts) as commander sees it: its options and arguments for --help. Calls
// without --help take the lean route before commander loads; one that reaches commander still
// runs there, so the lean parser decides every call alike.
function registerLean(program: Command, lean: LeanCommand, state: RunState): void {
  const { spec } = lean;
  const command = program.command(spec.name).description(spec.description);
  for (const a of spec.arguments) {
    const name = `${a.name}${a.variadic ? '...' : ''}`;
    const argument = program.createArgument(a.required ? `<${name}>` : `[${name}]`, a.description);
    if (a.choices) argument.choices(a.choices);
    command.addArgument(argument);
  }
  for (const o of spec.options) {
    if (o.hidden) continue;
    const option = new Option(o.flags, o.description);
    if (o.choices) option.choices([...o.choices]);
    if (o.default !== undefined) option.default(o.default);
    command.addOption(option);
  }
  command
    .addHelpText('after', spec.help)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      state.exitCode = await runLean(lean, state.argv, state.io);
    });
}

/**
 * Builds the program; actions record their exit code in `state` and write to state.io. `only`:
 * the command a call runs, the one registered (a call's parse needs no other; help, a typo's
 * suggestion and a call without a command get them all).
 */
export function createProgram(state: RunState, only?: CommandWord): Command {
  const { io } = state;
  const program = new Command('agent-state')
    .description(
      'Durable task state for AI coding agents: goals, progress, completion markers and evidence in .agent/.',
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('-C, --cwd <dir>', 'run as if started in <dir>')
    .option('--json', 'print one JSON document on stdout (stable shapes: docs/cli.md)')
    .option('-q, --quiet', 'print nothing but errors')
    .option(
      '--agent <name>',
      `act as this agent: its own next action, step and claims (default: $${AGENT_ENV}; none: the default agent)`,
    )
    .option('--no-color', 'disable colors (NO_COLOR is honoured too)')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    // Inherited by every command: a typo's suggestion becomes the fix of the error.
    .exitOverride((error) => {
      throw withSuggestion(error);
    })
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      outputError: () => undefined,
    })
    .configureHelp({ showGlobalOptions: true })
    // --agent is the environment variable for this run: the library, the hooks a command starts
    // and the test command a checkpoint runs all see the same name.
    .hook('preAction', (_program, action) => {
      const agent = action.optsWithGlobals<{ agent?: string }>().agent;
      if (agent !== undefined) io.env[AGENT_ENV] = checkAgentName(agent, '--agent');
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 a check did not pass, 2 usage error or invalid input,
            3 no .agent/ found, 4 busy (state locked), 70 internal error.

Examples:
  $ agent-state init --goal "Add OAuth login" --test "npm test"
  $ agent-state plan add "Write the token refresh test"
  $ agent-state next "Run the migration" --stage implementing
  $ agent-state status`,
    );

  for (const word of only ? [only] : (Object.keys(COMMANDS) as CommandWord[])) {
    if (isLean(word)) registerLean(program, LEAN[word], state);
    else REGISTER[word](program, state);
  }
  return program;
}
