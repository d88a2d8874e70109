// `agent-state merge-driver %O %A %B %P`: the git merge driver of the state files
// (docs/multi-agent.md); its implementation loads only when git runs it.
import { resolve } from 'node:path';
import type { AgentCommand } from '../agent-command.js';
import { EXIT } from '../../error-report.js';

export function registerMergeDriver(program: AgentCommand): void {
  program
    .command('merge-driver')
    .argument('<base>', "the common ancestor's version (git's %O)")
    .argument('<ours>', 'our version, overwritten with the result (%A)')
    .argument('<theirs>', 'their version (%B)')
    .argument('[path]', 'the path in the repository (%P), for messages')
    .description(
      'merge three versions of a state file by id (run by git; `hooks install` registers it)',
    )
    .helpAfter(
      `
Plan items and markers merge by id (both sides' additions are kept), memory and reminders as sets;
where both sides changed the same thing a rule decides (done with a marker beats running, the newer
marker wins, ...) or the file keeps a conflict that names it and shows both values, and the exit
code is 1, so that git stops for you to resolve it (\`agent-state validate\` explains what is left).
A side that is not a YAML mapping is merged line by line, as git would.

Registered by \`agent-state hooks install\`:
  info/attributes      .agent/state/**/*.yaml merge=agent-state   (or .gitattributes)
  git config           merge.agent-state.driver "<node> <agent-state> merge-driver %O %A %B %P"`,
    )
    .run(async (ctx, [base, ours, theirs, path]) => {
      const { runMergeDriver } = await import('../../merge/merge-driver.js');
      // git passes paths relative to the repository's top, where it runs the driver.
      const at = (file: string) => resolve(ctx.cwd, file);
      const files = { base: at(base!), ours: at(ours!), theirs: at(theirs!), path: path ?? ours };
      const result = runMergeDriver(files, ctx);
      const { describeValue } = await import('../../merge/merge-yaml.js');
      const { shellQuote } = await import('../../text/safe-text.js');
      for (const c of result.conflicts)
        ctx.out.error(
          `agent-state merge-driver: ${result.path}: CONFLICT in ${c.what}: ours ${describeValue(c.ours)}, theirs ${describeValue(c.theirs)} (no rule decides: keep one side in the file, then \`git add ${shellQuote(result.path)}\`)`,
        );
      if (result.lineConflicts > 0)
        ctx.out.error(
          `agent-state merge-driver: ${result.path} ${result.oversized ? 'is over the 1 MiB limit for a state file' : 'is not a YAML mapping on every side'}: merged line by line, ${result.lineConflicts} conflict(s) marked`,
        );
      const failed = result.conflicts.length > 0 || result.lineConflicts > 0;
      return { json: result, exitCode: failed ? EXIT.CHECK_FAILED : EXIT.OK };
    });
}
