// `agent-state init`: scaffold .agent/ (idempotent).
import type { AgentCommand } from '../agent-command.js';
import { initState, type InitOptions } from '../../state/init.js';
import { recordFact } from '../record.js';

type InitFlags = Pick<InitOptions, 'goal' | 'test' | 'keyFiles' | 'force'>;

export function registerInit(program: AgentCommand): void {
  program
    .command('init')
    .description('create .agent/ at the repository root (idempotent: existing files are kept)')
    .option('--goal <text>', 'the goal anchor: one sentence saying what the task achieves')
    .option('--test <command>', 'the shell command a checkpoint runs to prove the tree works')
    .option(
      '--key-files <glob...>',
      'files whose content is part of the fingerprint (default: manifests and lockfiles present)',
    )
    .option('--force', 'overwrite existing state files with fresh ones')
    .helpAfter(
      '\nExamples:\n  $ agent-state init --goal "Add OAuth login to the web app" --test "npm test"\n  $ agent-state init --key-files package.json "config/*.yaml"',
    )
    .run<InitFlags>(async (ctx, _args, flags) => {
      const result = initState({ ...ctx, ...flags });
      const { style } = ctx.out;
      const lines: string[] = [];
      const changed = result.created.length + result.overwritten.length;
      if (changed === 0)
        lines.push(
          `Already initialized in ${result.root}: ${result.kept.length} files kept, no byte changed.`,
        );
      else {
        lines.push(`Initialized agent-state in ${result.root}`);
        for (const f of result.created) lines.push(`  ${style.green('created')}      ${f}`);
        for (const f of result.overwritten) lines.push(`  ${style.yellow('overwritten')}  ${f}`);
        for (const f of result.kept) lines.push(`  ${style.dim('kept')}         ${f}`);
      }
      if (!result.git)
        lines.push(
          style.yellow(
            'Not a git repository: fingerprints will hold no HEAD, branch or dirty-file list, and `checkpoint --commit` and git hooks are unavailable.',
          ),
        );
      if (changed > 0)
        lines.push(
          'Next: `agent-state goal "..."` (if not set), then `agent-state plan add "..."`.',
        );
      const recorded = result.created.includes('.agent/state/progress.yaml')
        ? await recordFact(ctx, {
            type: 'task.created',
            ...(flags.goal ? { goal: flags.goal.replace(/\s+/g, ' ').trim() } : {}),
          })
        : [];
      return { text: lines.join('\n'), json: result, warnings: [...result.warnings, ...recorded] };
    });
}
