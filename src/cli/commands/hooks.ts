// `agent-state hooks install|uninstall|status`: the git hooks that guard the state (docs/hooks.md).
import { Option } from 'commander';
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';
import {
  GIT_HOOK_MANAGERS,
  GIT_HOOK_NAMES,
  type GitHookFileChange,
  type GitHookName,
  type MergeDriverChange,
} from '../../git-hooks/git-hook-types.js';
import type { HooksOptions } from '../../git-hooks/install.js';
import { recordOwnWrites } from '../record.js';

const MANAGERS = ['auto', ...GIT_HOOK_MANAGERS];
const HOOKS: readonly string[] = GIT_HOOK_NAMES;

// mergeDriver is commander's negation of --no-merge-driver; --hooks has a default, the whole list.
type HooksFlags = Pick<HooksOptions, 'manager' | 'mergeDriver' | 'sharedAttributes'> & {
  hooks: string;
};

// One line for the merge driver's registration, when install or uninstall touched it.
function mergeDriverLine(change: MergeDriverChange | null, paint: (t: string) => string): string[] {
  if (change === null) return [];
  if (change.attributes === 'unchanged' && change.config === 'unchanged')
    return change.driver === null
      ? []
      : [
          `  ${paint('unchanged'.padEnd(9))} merge driver (${change.attributes_file}, git config merge.agent-state)`,
        ];
  return [
    `  ${paint(change.attributes.padEnd(9))} ${change.attributes_file} (the state files merge with agent-state merge-driver)`,
    `  ${paint(change.config.padEnd(9))} git config merge.agent-state.driver`,
  ];
}

function parseHooks(list: string): GitHookName[] {
  const hooks = list
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const unknown = hooks.find((h) => !HOOKS.includes(h));
  if (unknown !== undefined || hooks.length === 0)
    throw new UsageError(`--hooks ${list}: unknown hook "${unknown ?? ''}"`, {
      hint: `give a comma-separated list of ${HOOKS.join(', ')}`,
    });
  return hooks as GitHookName[];
}

function changeLines(
  changes: readonly GitHookFileChange[],
  paint: (action: string) => string,
): string[] {
  return changes.map(
    (c) =>
      `  ${paint(c.action.padEnd(9))} ${c.file}${c.hook && !c.file.endsWith(c.hook) ? ` (${c.hook})` : ''}`,
  );
}

// The options install and uninstall share, each with its own descriptions.
function hookOptions(command: AgentCommand, manager: string, hooks: string, driver: string) {
  return command
    .addOption(new Option('--manager <name>', manager).choices(MANAGERS).default('auto'))
    .option('--hooks <list>', hooks, HOOKS.join(','))
    .option('--no-merge-driver', driver);
}

export function registerHooks(program: AgentCommand): void {
  const hooks = program
    .command('hooks')
    .description('install, remove or inspect the git hooks that guard the state')
    .helpAfter(
      '\nExamples:\n  $ agent-state hooks install\n  $ agent-state hooks install --manager husky --hooks pre-commit\n  $ agent-state hooks status\n  $ agent-state hooks uninstall',
    );

  hookOptions(
    hooks
      .command('install')
      .description(
        'add our hooks to the hook manager the repository uses (idempotent; never replaces a hook)',
      ),
    'where to install (auto detects husky, lefthook, pre-commit, core.hooksPath)',
    'comma-separated hooks to install',
    'do not register the merge driver of the state files',
  )
    .option(
      '--shared-attributes',
      "route the state files to the driver in .gitattributes (to commit) instead of git's info/attributes",
    )
    .helpAfter(
      `
The merge driver: a block in git's info/attributes (shared by the worktrees, never committed;
--shared-attributes: the work tree's .gitattributes, to commit) routes .agent/state/**/*.yaml to
\`agent-state merge-driver\`, and git config merge.agent-state.driver names this machine's
agent-state (run \`hooks install\` in each clone).

Plain git: our block is appended to .git/hooks/<hook> between "# >>> agent-state >>>" and
"# <<< agent-state <<<"; husky: the same block in .husky/<hook>; lefthook: a job named
agent-state in lefthook.yml; pre-commit: prints the \`repo: local\` snippet to add.

Examples:
  $ agent-state hooks install
  $ agent-state hooks install --manager lefthook
  $ agent-state hooks install --hooks pre-commit --json`,
    )
    .run<HooksFlags>(async (ctx, _args, flags) => {
      const hooks = parseHooks(flags.hooks);
      const { installHooks } = await import('../../git-hooks/install.js');
      const result = await installHooks({ ...ctx, ...flags, hooks });
      const { style } = ctx.out;
      const paint = (a: string) => (a === 'unchanged' ? style.dim(a) : style.green(a));
      const lines = [
        `${style.bold(`agent-state hooks for ${result.manager}`)} (${result.reason})`,
        ...changeLines(result.changes, paint),
        ...mergeDriverLine(result.merge_driver, paint),
      ];
      if (result.snippet)
        lines.push('', 'Add to .pre-commit-config.yaml, under `repos:`:', '', result.snippet);
      for (const note of result.notes) lines.push(style.yellow(`note: ${note}`));
      const md = result.merge_driver;
      const attributes = md ? [{ file: md.attributes_file, action: md.attributes }] : [];
      const warnings = await recordOwnWrites(ctx, [...result.changes, ...attributes]);
      if (result.manager !== 'pre-commit')
        lines.push(
          'Check with `agent-state hooks status`; skip once with AGENT_STATE=0 git commit ...',
        );
      return { text: lines.join('\n'), json: result, warnings };
    });

  hookOptions(
    hooks
      .command('uninstall')
      .description(
        "remove our part from every hook manager; a user's hook file comes back byte for byte",
      ),
    'only this manager (default: all)',
    'comma-separated hooks to remove',
    'leave the merge driver registered',
  )
    .helpAfter(
      '\nExamples:\n  $ agent-state hooks uninstall\n  $ agent-state hooks uninstall --manager husky',
    )
    .run<HooksFlags>(async (ctx, _args, flags) => {
      const hooks = parseHooks(flags.hooks);
      const { uninstallHooks } = await import('../../git-hooks/install.js');
      const result = await uninstallHooks({ ...ctx, ...flags, hooks });
      const { style } = ctx.out;
      const driver = mergeDriverLine(result.merge_driver, style.green);
      const lines =
        result.changes.length === 0 && driver.length === 0
          ? ['No agent-state hooks were installed: nothing changed.']
          : ['Removed agent-state from:', ...changeLines(result.changes, style.green), ...driver];
      for (const note of result.notes) lines.push(style.yellow(`note: ${note}`));
      return { text: lines.join('\n'), json: result };
    });

  hooks
    .command('status')
    .description('show where our hooks are installed and whether git will run them')
    .helpAfter(
      '\nExamples:\n  $ agent-state hooks status\n  $ agent-state hooks status --json | jq .active',
    )
    .run(async (ctx) => {
      const { hooksStatus } = await import('../../git-hooks/status.js');
      const status = await hooksStatus(ctx);
      const { style } = ctx.out;
      const lines = [
        `${style.bold('Manager')}  ${status.detected.manager} (${status.detected.reason}); git runs hooks from ${status.hooksDir}`,
      ];
      for (const e of status.entries) {
        // Pad before coloring: escape codes would count towards the width.
        const label = !e.installed ? 'not installed' : e.problems.length ? 'inactive' : 'installed';
        const paint = !e.installed ? style.dim : e.problems.length ? style.yellow : style.green;
        lines.push(
          `  ${e.hook.padEnd(14)} ${paint(label.padEnd(14))} ${e.file} ${style.dim(`(${e.manager})`)}`,
        );
        for (const p of e.problems) lines.push(`      ${style.yellow(p)}`);
      }
      const md = status.merge_driver;
      lines.push(
        `  ${'merge driver'.padEnd(14)} ${(md.active ? style.green : md.attributes || md.driver ? style.yellow : style.dim)((md.active ? 'installed' : md.attributes || md.driver ? 'inactive' : 'not installed').padEnd(14))} ${md.attributes_files.join(' + ') || 'info/attributes'} + git config merge.agent-state`,
      );
      if (md.attributes && !md.driver)
        lines.push(
          `      ${style.yellow(`${md.attributes_files.join(' and ')} route the state files to the driver, but this clone has no merge.agent-state.driver: run \`agent-state hooks install\``)}`,
        );
      if (!md.attributes && md.driver)
        lines.push(
          `      ${style.yellow('git config has the driver, but no attributes route .agent/state/**/*.yaml to it: run `agent-state hooks install`')}`,
        );
      const blocked = status.entries.some((e) => e.hook === 'pre-commit' && e.installed);
      lines.push(
        status.active
          ? 'The pre-commit hook is active.'
          : style.yellow(
              blocked
                ? 'The pre-commit hook is installed, but git will not run it: fix the problems above.'
                : 'No agent-state pre-commit hook: run `agent-state hooks install`.',
            ),
      );
      return { text: lines.join('\n'), json: status };
    });
}
