// `integrate`: wires agent-state into an agent host (or teaches any agent through a Markdown
// block). Idempotent: a second run changes no byte; `remove` takes out exactly what was added and
// restores a file's original bytes when nothing else changed it.
import { isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { locateRoot } from '../state/find-root.js';
import { requireRealInside } from '../state/repo-path.js';
import type { BaseOptions, Warning } from '../types.js';
import type { HostAdapter, IntegrationPlan, IntegrationScope } from './host-adapter.js';
import {
  AGENTS_MD_FILES,
  HOST_NAMES,
  INTEGRATION_HOSTS,
  type IntegrationHost,
} from './host-names.js';
import { loadHost } from './hosts.js';
import { applyEdits, type IntegrationChange } from './install/file-edits.js';
import { resolveHookBinary, type HookBinary } from './install/hook-binary.js';
import { protocolBlockEdit } from './install/protocol-block.js';

export type { IntegrationHost } from './host-names.js';

export interface IntegrateOptions extends BaseOptions {
  host: IntegrationHost;
  /** Where to install: project (default), local (Claude Code only) or user. */
  scope?: IntegrationScope;
  /** Claude Code: also install the status line. */
  statusline?: boolean;
  /** Claude Code and Codex: also register the MCP server. */
  mcp?: boolean;
  /** Codex: also trust the project and hooks; Gemini CLI: the folder (else neither runs hooks). */
  trust?: boolean;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
  /** Take our part out instead of putting it in. */
  remove?: boolean;
  /** The command hooks run instead of the detected binary (e.g. `agent-state`). */
  bin?: string;
  /** agents-md: which instructions file (default AGENTS.md). */
  file?: string;
}

export interface IntegrateResult {
  host: IntegrationHost;
  scope: IntegrationScope;
  remove: boolean;
  dryRun: boolean;
  /** The repository root the project-scope files live under. */
  root: string;
  /** How hooks start agent-state (null for agents-md). */
  binary: HookBinary | null;
  changes: IntegrationChange[];
  notes: string[];
  warnings: Warning[];
}

async function checkOptions(
  options: IntegrateOptions,
  host: HostAdapter | null,
): Promise<IntegrationScope> {
  const scopes = host?.scopes ?? ['project'];
  const scope = options.scope ?? 'project';
  if (!scopes.includes(scope))
    throw new UsageError(`--scope ${scope} does not apply to ${options.host}`, {
      hint: `use --scope ${scopes.join(' or ')}`,
    });
  for (const flag of ['statusline', 'mcp', 'trust'] as const)
    if (options[flag] && !host?.flags.includes(flag)) {
      const hosts = await Promise.all(HOST_NAMES.map(loadHost));
      const which = hosts.filter((h) => h.flags.includes(flag)).map((h) => h.name);
      throw new UsageError(`--${flag} applies to ${which.join(' and ')} only`, {
        hint: `drop --${flag}`,
      });
    }
  if (options.file !== undefined && host !== null)
    throw new UsageError('--file applies to agents-md only', { hint: 'drop --file' });
  if (options.file !== undefined && !(AGENTS_MD_FILES as readonly string[]).includes(options.file))
    throw new UsageError(`--file ${options.file} is not an instructions file agents read`, {
      hint: `use --file ${AGENTS_MD_FILES.join(', ')}`,
    });
  return scope;
}

/** Installs (or, with `remove`, uninstalls) the integration for one host; returns what changed. */
export async function integrate(options: IntegrateOptions): Promise<IntegrateResult> {
  if (!INTEGRATION_HOSTS.includes(options.host))
    throw new UsageError(`unknown host "${String(options.host)}"`, {
      hint: `use one of: ${INTEGRATION_HOSTS.join(', ')}`,
    });
  const host = options.host === 'agents-md' ? null : await loadHost(options.host);
  const scope = await checkOptions(options, host);
  const env = options.env ?? process.env;
  const remove = options.remove === true;
  const dryRun = options.dryRun === true;
  const info = locateRoot(options.cwd);
  const binary = resolveHookBinary({
    given: options.bin,
    root: info.root,
    projectDirVar: host?.projectDir,
    env,
  });
  const file = options.file ?? 'AGENTS.md';
  const plan: IntegrationPlan = host
    ? host.install({
        scope,
        root: info.root,
        binary,
        env,
        statusline: options.statusline === true,
        mcp: options.mcp === true,
        trust: options.trust === true,
        remove,
      })
    : { edits: [protocolBlockEdit(join(info.root, file), file)], notes: [] };
  // A host folder of the repository (.opencode, .claude) may be a link: never write through one out.
  for (const edit of plan.edits) {
    const rel = relative(info.root, edit.path);
    if (!rel.startsWith('..') && !isAbsolute(rel))
      requireRealInside(info.root, rel.split(sep).join('/'));
  }
  const changes = applyEdits(plan.edits, remove ? 'remove' : 'install', {
    dryRun,
    env,
    now: (options.now ?? (() => new Date()))(),
  });
  const warnings: Warning[] = [];
  // A shared file that starts agent-state by this machine's path works on no other clone.
  if (host && !remove && scope === 'project' && binary.how === 'absolute')
    warnings.push({
      file: plan.edits[0]!.display,
      message: `the hooks start agent-state by this machine's path to agent-state (${binary.executable}), and this file is shared: on other clones they find nothing. Put agent-state on PATH or in the project's node_modules and run \`agent-state integrate ${host.name}\` again, or name a portable command with --bin agent-state`,
    });
  if (!info.initialized && !remove && host)
    warnings.push({
      file: '.agent/',
      message: 'no .agent/ here yet: the hooks stay silent until you run `agent-state init`',
    });
  return {
    host: options.host,
    scope,
    remove,
    dryRun,
    root: info.root,
    binary: host ? binary : null,
    changes,
    notes: remove ? [] : plan.notes,
    warnings,
  };
}
