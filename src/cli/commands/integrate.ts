// `agent-state integrate claude|codex|gemini|opencode|agents-md`: wire agent-state into an agent
// host (hooks, status line, MCP server, instructions block), or take it out again with --remove.
import type { AgentCommand } from '../agent-command.js';
import {
  AGENTS_MD_FILES,
  INTEGRATION_HOSTS,
  type IntegrationHost,
} from '../../hosts/host-names.js';
import type { IntegrateOptions, IntegrateResult } from '../../hosts/integrate.js';
import type { BaseOptions } from '../../types.js';
import { type CommandContext } from '../action.js';
import { lineDiff } from '../line-diff.js';
import { recordOwnWrites } from '../record.js';

// The command's flags are the library's options, less what the call itself gives.
type IntegrateFlags = Omit<IntegrateOptions, 'host' | keyof BaseOptions>;

function renderResult(result: IntegrateResult, ctx: CommandContext): string {
  const { style } = ctx.out;
  const verb = result.remove ? 'removed' : 'integrated';
  const head =
    result.host === 'agents-md'
      ? `agents-md: the protocol block ${result.remove ? 'is out' : 'is in'}`
      : `${result.host} (${result.scope} scope): ${verb}${result.remove ? '' : `; hooks run \`${result.binary?.command} hook ${result.host}\``}`;
  const lines = [result.dryRun ? `${head} ${style.yellow('(dry run: nothing written)')}` : head];
  const width = Math.max(...result.changes.map((c) => c.action.length));
  for (const change of result.changes) {
    // Removing from a file that is not there is not worth a line.
    if (result.remove && change.action === 'unchanged' && change.before === null) continue;
    const word = change.action.padEnd(width);
    const colored = change.action === 'unchanged' ? style.dim(word) : style.green(word);
    lines.push(`  ${colored}  ${change.file}`);
    if (result.dryRun && change.action !== 'unchanged') {
      const diff = lineDiff(change.before, change.after);
      if (diff) lines.push(...diff.split('\n').map((l) => `      ${l}`));
    }
  }
  if (result.changes.every((c) => c.action === 'unchanged'))
    lines.push(
      style.dim(result.remove ? '  (nothing of ours was there)' : '  (already up to date)'),
    );
  for (const note of result.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}

function toJson(result: IntegrateResult): unknown {
  return {
    host: result.host,
    scope: result.scope,
    remove: result.remove,
    dry_run: result.dryRun,
    root: result.root,
    binary: result.binary ? { command: result.binary.command, how: result.binary.how } : null,
    changes: result.changes.map((c) => ({ file: c.file, action: c.action })),
    notes: result.notes,
    warnings: result.warnings,
  };
}

export function registerIntegrate(program: AgentCommand): void {
  program
    .command('integrate')
    .description('wire agent-state into an agent host (hooks, status line, MCP) or take it out')
    .argument('<host>', `one of: ${INTEGRATION_HOSTS.join(', ')}`)
    .option('--scope <scope>', 'project (default), local (claude only) or user')
    .option('--statusline', 'claude: also show a status line for the human')
    .option('--mcp', 'claude, codex: also register the MCP server')
    .option(
      '--trust',
      "codex: also trust this project and agent-state's hooks in ~/.codex/config.toml (codex exec skips untrusted hooks); gemini: also trust the folder in ~/.gemini/trustedFolders.json (Gemini runs no hooks in an untrusted one)",
    )
    .option('--dry-run', 'show what would change, write nothing')
    .option('--remove', 'take out exactly what integrate added')
    .option(
      '--bin <command>',
      'the command hooks run (default: this installation, found on PATH or by path)',
    )
    .option('--file <file>', `agents-md: the instructions file (${AGENTS_MD_FILES.join(', ')})`)
    .helpAfter(
      `
Every run is idempotent and prints what it changed. Hosts:
  claude     .claude/settings.json hooks (local: settings.local.json; user: ~/.claude/settings.json)
  codex      .codex/hooks.json + a block in AGENTS.md (--trust: Codex runs only trusted hooks)
  gemini     .gemini/settings.json hooks + a block in GEMINI.md (--trust: trust the folder too)
  opencode   .opencode/plugins/agent-state.js
  agents-md  a block in AGENTS.md (or --file CLAUDE.md|GEMINI.md) teaching any agent the protocol

Examples:
  $ agent-state integrate claude --statusline
  $ agent-state integrate claude --scope user --dry-run
  $ agent-state integrate codex --mcp --trust
  $ agent-state integrate gemini --trust
  $ agent-state integrate agents-md --file CLAUDE.md
  $ agent-state integrate claude --remove`,
    )
    .run<IntegrateFlags>(async (ctx, [host], flags) => {
      const { integrate } = await import('../../hosts/integrate.js');
      const result = await integrate({ ...flags, ...ctx, host: host as IntegrationHost });
      const recorded = result.dryRun ? [] : await recordOwnWrites(ctx, result.changes);
      return {
        text: renderResult(result, ctx),
        json: toJson(result),
        warnings: [...result.warnings, ...recorded],
      };
    });
}
