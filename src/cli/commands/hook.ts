// `agent-state hook <name>` (lean): what installed hooks run. A git hook (pre-commit, post-checkout,
// post-merge) reports on stderr; a host hook reads the host's JSON on stdin, answers on stdout, exits 0.
import { describeError, EXIT, type ExitCode } from '../../error-report.js';
import { UsageError } from '../../errors.js';
import { GIT_HOOK_NAMES, type GitHookName } from '../../git-hooks/git-hook-types.js';
import { HOST_NAMES, type HostName } from '../../hosts/host-names.js';
import type { CommandContext } from '../action.js';
import type { LeanCommand } from '../parse-args.js';
import { readStdin } from '../read-stdin.js';

// A post-* hook never fails: it cannot undo anything.
async function gitHook(
  name: GitHookName,
  args: readonly string[],
  ctx: CommandContext,
): Promise<ExitCode> {
  const { out, io } = ctx;
  if (name === 'pre-commit') {
    const { runPreCommit } = await import('../../git-hooks/pre-commit-hook.js');
    const { renderPreCommit, SKIP_LINE } = await import('../render-pre-commit.js');
    let result;
    try {
      result = await runPreCommit(ctx);
    } catch (error) {
      // Our own failure (not the user's to fix): say how to commit anyway.
      if (describeError(error).exit === EXIT.INTERNAL) out.error(out.errStyle.dim(SKIP_LINE));
      throw error;
    }
    if (out.json) out.printJson({ hook: name, blocked: !result.ok, ...result });
    else {
      const lines = renderPreCommit(result, out.errStyle);
      if (lines.length > 0 && (!out.quiet || !result.ok)) io.stderr.write(`${lines.join('\n')}\n`);
    }
    return result.ok ? EXIT.OK : EXIT.CHECK_FAILED;
  }
  try {
    const { recordCheckout, recordMerge } = await import('../../git-hooks/git-events.js');
    const result =
      name === 'post-checkout' ? await recordCheckout(args, ctx) : await recordMerge(args, ctx);
    if (out.json) out.printJson({ hook: name, ...result });
    else if (result.warning && !out.quiet)
      io.stderr.write(out.errStyle.yellow(`agent-state ${name} hook: ${result.warning.message}\n`));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (out.json) out.printJson({ hook: name, recorded: null, skipped: null, error: message });
    else if (!out.quiet)
      io.stderr.write(
        out.errStyle.yellow(`agent-state ${name} hook: nothing recorded: ${message}\n`),
      );
  }
  return EXIT.OK;
}

export const hookCommand: LeanCommand = {
  spec: {
    name: 'hook',
    description:
      'run one installed hook: a git hook (pre-commit, post-checkout, post-merge) or an agent host hook (claude, codex, gemini, opencode)',
    arguments: [
      {
        name: 'name',
        description: `the hook: ${GIT_HOOK_NAMES.join(', ')}, or a host: ${HOST_NAMES.join(', ')}`,
        required: true,
        choices: [...GIT_HOOK_NAMES, ...HOST_NAMES],
      },
      { name: 'args', description: 'the arguments git passed to the hook', variadic: true },
    ],
    help: `
Git hooks (installed by \`agent-state hooks install\`; docs/hooks.md): pre-commit blocks (exit 1)
when a staged state file is invalid or a staged path is Forbidden; it warns when the commit
changes a file a completion marker covers (hooks.stale_markers: block makes that blocking).
AGENT_STATE=0 skips every check; AGENT_STATE_ALLOW_FORBIDDEN=1 lets Forbidden paths through for
one commit. post-checkout and post-merge record the fact in the event log (git.checkout,
git.merge) and never fail.

Host hooks (installed by \`agent-state integrate <host>\`; docs/integrations.md): the host's JSON on
stdin, the answer on stdout, always exit 0 — bad input or a missing .agent/ means one line on
stderr, never a broken session.

Examples:
  $ agent-state hook pre-commit
  $ AGENT_STATE_ALLOW_FORBIDDEN=1 git commit -m "Migrate the storage schema"
  $ agent-state hook post-checkout "$OLD" "$NEW" 1
  $ echo '{"hook_event_name":"SessionStart","source":"compact","cwd":"'$PWD'"}' | agent-state hook claude`,
  },

  async run({ args: [name, ...rest] }, ctx) {
    if ((HOST_NAMES as readonly string[]).includes(name!)) {
      if (rest.length > 0)
        throw new UsageError(`hook ${name} takes no arguments (got "${rest[0]}")`, {
          hint: `the host pipes its JSON on stdin: agent-state hook ${name}`,
        });
      const { runHostHook } = await import('../../hosts/run-host-hook.js');
      const result = await runHostHook(name as HostName, await readStdin(ctx.io), ctx);
      if (result.stdout) ctx.io.stdout.write(result.stdout);
      if (result.stderr) ctx.io.stderr.write(result.stderr);
      return EXIT.OK;
    }
    return gitHook(name as GitHookName, rest, ctx);
  },
};
