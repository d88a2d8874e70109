// The commander program: global options and every command, one file each under commands/.
import { Option, type Command } from 'commander';
import { AgentCommand } from './agent-command.js';
import { AGENT_ENV, checkAgentName } from '../state/agent-name.js';
import { packageVersion } from '../package-root.js';
import type { RunState } from './action.js';
import { withSuggestion } from './suggest.js';
import { LEAN_COMMANDS, runLean } from './lean.js';
import type { LeanCommand } from './parse-args.js';
import { COMMANDS, isLean, type CommandWord, type LeanWord } from './command-list.js';

type Register = (program: AgentCommand) => void;

// What registers each command with commander (the lean ones from their specs), imported when
// registered: a call's parse initializes its own command's module only.
const REGISTER: Record<Exclude<CommandWord, LeanWord>, () => Promise<Register>> = {
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  goal: async () => (await import('./commands/goal.js')).registerGoal,
  init: async () => (await import('./commands/init.js')).registerInit,
  integrate: async () => (await import('./commands/integrate.js')).registerIntegrate,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
  'merge-driver': async () => (await import('./commands/merge-driver.js')).registerMergeDriver,
  next: async () => (await import('./commands/next.js')).registerNext,
  plan: async () => (await import('./commands/plan.js')).registerPlan,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  hooks: async () => (await import('./commands/hooks.js')).registerHooks,
  watch: async () => (await import('./commands/watch.js')).registerWatch,
  events: async () => (await import('./commands/events.js')).registerEvents,
  check: async () => (await import('./commands/check.js')).registerCheck,
  checkpoint: async () => (await import('./commands/checkpoint.js')).registerCheckpoint,
  done: async () => (await import('./commands/done.js')).registerDone,
  evidence: async () => (await import('./commands/evidence.js')).registerEvidence,
  fingerprint: async () => (await import('./commands/fingerprint.js')).registerFingerprint,
  undone: async () => (await import('./commands/undone.js')).registerUndone,
  verify: async () => (await import('./commands/verify.js')).registerVerify,
  remind: async () => (await import('./commands/remind.js')).registerRemind,
  memory: async () => (await import('./commands/memory.js')).registerMemory,
  current: async () => (await import('./commands/current.js')).registerCurrent,
  ui: async () => (await import('./commands/ui.js')).registerUi,
  report: async () => (await import('./commands/report.js')).registerReport,
  import: async () => (await import('./commands/import.js')).registerImport,
};

// A lean command (lean.ts) as commander sees it: its options and arguments for --help. Calls
// without --help take the lean route before commander loads; one that reaches commander still
// runs there, so the lean parser decides every call alike.
function registerLean(program: Command, lean: LeanCommand, state: RunState): void {
  const { spec } = lean;
  const command = program.command(spec.name).description(spec.description);
  for (const a of spec.arguments ?? []) {
    const name = `${a.name}${a.variadic ? '...' : ''}`;
    const argument = program.createArgument(a.required ? `<${name}>` : `[${name}]`, a.description);
    if (a.choices) argument.choices(a.choices);
    command.addArgument(argument);
  }
  for (const o of spec.options ?? []) {
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

// `only`: the command a call runs, the one registered (help, a typo's suggestion and a call
// without a command get them all).
/** Builds the program; actions record their exit code in `state`. */
export async function createProgram(state: RunState, only?: CommandWord): Promise<Command> {
  const { io } = state;
  const program = new AgentCommand(state, 'agent-state')
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
    if (isLean(word)) registerLean(program, await LEAN_COMMANDS[word](), state);
    else (await REGISTER[word]())(program);
  }
  return program;
}
