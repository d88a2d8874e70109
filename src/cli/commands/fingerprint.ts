// `agent-state fingerprint`: the environment as it is now (what a checkpoint would record).
import type { AgentCommand } from '../agent-command.js';
import type { Fingerprint } from '../../types.js';
import { type CommandContext } from '../action.js';
import { plural } from '../../text/plural.js';

function listPaths(map: Record<string, string>, max = 8): string {
  const paths = Object.keys(map);
  if (paths.length === 0) return 'none';
  const shown = paths.slice(0, max).join(', ');
  return `${plural(paths.length, 'file')}: ${shown}${paths.length > max ? `, and ${paths.length - max} more` : ''}`;
}

/** The human rendering of a fingerprint. */
export function renderFingerprint(fp: Fingerprint, ctx: CommandContext): string {
  const { style } = ctx.out;
  const label = (text: string) => style.bold(text.padEnd(10));
  const lines: string[] = [];
  if (fp.git) {
    const upstream = fp.git.upstream
      ? ` (upstream ${fp.git.upstream}: ahead ${fp.git.ahead ?? 0}, behind ${fp.git.behind ?? 0})`
      : '';
    lines.push(
      `${label('HEAD')}${fp.git.head?.slice(0, 12) ?? '(no commits yet)'} on ${fp.git.branch ?? '(detached)'}${upstream}`,
      `${label('Dirty')}${listPaths(fp.dirty)}`,
      `${label('Untracked')}${listPaths(fp.untracked)}`,
    );
    if (fp.overflow)
      lines.push(`${label('')}and ${fp.overflow.files} more changed files (summarized)`);
  } else if (fp.listing) {
    lines.push(
      `${label('Listing')}${plural(fp.listing.files, 'file')}${fp.listing.truncated ? ' (truncated)' : ''}, ${fp.listing.digest.slice(0, 19)}…`,
    );
  }
  lines.push(
    `${label('Key files')}${listPaths(fp.key_files)}`,
    `${label('Runtime')}agent-state ${fp.runtime.agent_state}, node ${fp.runtime.node}, ${fp.runtime.platform}`,
  );
  return lines.join('\n');
}

export function registerFingerprint(program: AgentCommand): void {
  program
    .command('fingerprint')
    .description(
      'show the environment fingerprint of the tree as it is now (what a checkpoint records)',
    )
    .helpAfter(
      '\nExamples:\n  $ agent-state fingerprint\n  $ agent-state fingerprint --json | jq .dirty',
    )
    .run(async (ctx) => {
      const { collectFingerprint } = await import('../../fingerprint/collect.js');
      const { fingerprint, warnings } = await collectFingerprint(ctx);
      return { text: renderFingerprint(fingerprint, ctx), json: fingerprint, warnings };
    });
}
