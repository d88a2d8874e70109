// commander's Command with `run`, the one way a command sets its action: it gets the call's
// context and returns what to print, and printing and exit codes happen in one place.
import { Command } from 'commander';
import { EXIT } from '../error-report.js';
import { printResult, type CommandContext, type CommandResult, type RunState } from './action.js';

type Action<O> = (
  ctx: CommandContext,
  args: string[],
  options: O,
) => CommandResult | void | Promise<CommandResult | void>;

/** A command of the commander program; its subcommands are ones too. */
export class AgentCommand extends Command {
  readonly runState: RunState;

  constructor(state: RunState, name?: string) {
    super(name);
    this.runState = state;
  }

  override createCommand(name?: string): AgentCommand {
    return new AgentCommand(this.runState, name);
  }

  /** Adds `text` after the option list of --help (examples, notes). */
  helpAfter(text: string): this {
    return this.addHelpText('after', text);
  }

  /** Sets the action: builds the context, prints the result (none: the action printed itself), records the exit code. */
  run<O = Record<string, unknown>>(action: Action<O>): this {
    return this.action(async (...raw: unknown[]): Promise<void> => {
      const command = raw[raw.length - 1] as Command;
      const options = raw[raw.length - 2] as O;
      const args = raw
        .slice(0, -2)
        .flatMap((a) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
      const ctx = this.runState.makeContext(command);
      const result = await action(ctx, args, options);
      this.runState.exitCode = result ? await printResult(ctx, result) : EXIT.OK;
    });
  }
}
