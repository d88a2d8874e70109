// Codex CLI: hooks in .codex/hooks.json (project; ~/.codex/hooks.json for user), the protocol
// block in AGENTS.md, and optionally the MCP server as a managed block in .codex/config.toml.
// Format: https://developers.openai.com/codex/hooks (see docs/integrations.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HASH_MARKERS, removeBlock, upsertBlock } from '../../text/managed-block.js';
import { claudeOutput } from '../claude/claude-host.js';
import {
  doctorCheck,
  type DoctorCheck,
  type HostAdapter,
  type HostHookRegistration,
  type InstallContext,
} from '../host-adapter.js';
import type { HostHookEvent, HostHookOutcome } from '../host-hook-event.js';
import { parseHookCall, str } from '../host-hook-payload.js';
import { readHostFile, textEdit, type FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { hooksFileEdit, hostHookSpecs, isHostHook, mergeHooks } from '../install/hook-groups.js';
import type { HookBinary } from '../install/hook-binary.js';
import { parseJsonObject, type JsonObject } from '../install/json-text.js';
import { MCP_SERVER_NAME } from '../install/mcp-json.js';
import { protocolBlockEdit } from '../install/protocol-block.js';
import { codexToolOk } from './codex-exit-code.js';
import { codexHookTrusts, codexTrustBlock, codexTrustGaps, readCodexTrust } from './codex-trust.js';

/** Codex's edit tools: `apply_patch` (matchers may also say Edit or Write) and Bash. */
export const CODEX_EDIT_MATCHER = 'Bash|apply_patch';

/** What `integrate codex` registers; timeouts in seconds. */
const EVENTS: Record<string, HostHookRegistration> = {
  SessionStart: { kind: 'session-start', timeout: 20 },
  UserPromptSubmit: { kind: 'prompt', timeout: 5 },
  PreToolUse: { kind: 'pre-tool', matcher: CODEX_EDIT_MATCHER, timeout: 5 },
  PostToolUse: { kind: 'post-tool', timeout: 5 },
  PreCompact: { kind: 'pre-compact', timeout: 10 },
  PostCompact: { kind: 'post-compact', timeout: 10 },
  Stop: { kind: 'stop', timeout: 10 },
};

// Codex's home: $CODEX_HOME, else ~/.codex.
const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(homeDir(env), '.codex');

/** The `[mcp_servers.agent-state]` table (TOML), as the body of a managed block. */
export function codexMcpBlock(binary: HookBinary): string {
  return `[mcp_servers.${MCP_SERVER_NAME}]\ncommand = ${JSON.stringify(binary.executable)}\nargs = ["mcp"]`;
}

/** The one command that makes Codex run agent-state's hooks (printed by integrate and doctor). */
export function codexTrustCommand(scope: string): string {
  return `agent-state integrate codex${scope === 'user' ? ' --scope user' : ''} --trust`;
}

/**
 * Codex [0.171]: answers as Claude Code's (PreToolUse additionalContext does reach the model),
 * except that PreCompact takes only `continue`, `stopReason`, `suppressOutput` and
 * `systemMessage` (a `decision` makes its output invalid), and a deny reason gets ". Command:
 * ..." appended.
 */
function codexOutput(event: HostHookEvent, outcome: HostHookOutcome): JsonObject {
  if (event.kind === 'pre-compact')
    return outcome.block ? { continue: false, stopReason: outcome.block } : {};
  return claudeOutput(event, outcome);
}

/** The managed block in $CODEX_HOME/config.toml that trusts the project and our hooks. */
function trustEdit(context: InstallContext, hooksPath: string): FileEdit {
  const projectRoot = context.scope === 'project' ? context.root : null;
  const specs = hostHookSpecs(codexHost, context.binary);
  const block = (before: string) => {
    // The hooks as they will be once hooks.json is merged: trust keys carry group positions.
    const current = readHostFile(hooksPath, 'hooks.json');
    const isOurs = isHostHook(codexHost);
    const merged = mergeHooks(parseJsonObject(current ?? '', hooksPath), specs, isOurs);
    const outside = readCodexTrust(removeBlock(before, HASH_MARKERS));
    return codexTrustBlock(outside, codexHookTrusts(merged, hooksPath, isOurs), projectRoot);
  };
  const edit = textEdit({
    path: join(codexHome(context.env), 'config.toml'),
    display: '~/.codex/config.toml',
    body: '',
    markers: HASH_MARKERS,
  });
  return {
    ...edit,
    install: (before) => {
      const body = block(before ?? '');
      if (body === '') return before === null ? null : removeBlock(before, HASH_MARKERS);
      return upsertBlock(before ?? '', body, HASH_MARKERS);
    },
  };
}

// Codex skips untrusted hooks, and a whole untrusted project's .codex/, without a word.
function trustChecks(root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of ['project', 'user'] as const) {
    const hooksPath = codexHost.hooksFile!(scope, root, env).path;
    let settings: JsonObject;
    try {
      settings = parseJsonObject(readFileSync(hooksPath, 'utf8'), hooksPath);
    } catch {
      continue; // absent, or reported by the hooks check
    }
    const trusts = codexHookTrusts(settings, hooksPath, isHostHook(codexHost));
    if (trusts.length === 0) continue;
    let config = '';
    try {
      config = readFileSync(join(codexHome(env), 'config.toml'), 'utf8');
    } catch {
      /* no config.toml: nothing is trusted */
    }
    const gaps = codexTrustGaps(readCodexTrust(config), trusts, scope === 'project' ? root : null);
    const name = `codex trust (${scope === 'project' ? '.codex/hooks.json' : '~/.codex/hooks.json'})`;
    const fix = `run \`${codexTrustCommand(scope)}\``;
    const check = (status: DoctorCheck['status'], message: string, how = fix) =>
      checks.push(doctorCheck(name, status, message, status === 'ok' ? '' : how));
    if (gaps.projectDenied)
      check(
        'fail',
        'Codex marks this project untrusted (~/.codex/config.toml: trust_level = "untrusted"), so it loads nothing from .codex/ here',
        `trust the project in Codex if you mean to, then ${fix}`,
      );
    else if (gaps.project || gaps.untrusted.length > 0) {
      const why = [
        gaps.project ? 'this project is not trusted' : '',
        gaps.untrusted.length
          ? `${gaps.untrusted.length} of ${trusts.length} hooks are not trusted${gaps.modified.length ? ` (${gaps.modified.length} changed since they were)` : ''}`
          : '',
      ].filter(Boolean);
      check('fail', `Codex skips agent-state's hooks without a word: ${why.join('; ')}`);
    } else check('ok', `${trusts.length} hooks trusted`);
  }
  return checks;
}

export const codexHost: HostAdapter = {
  name: 'codex',
  events: EVENTS,
  statusFormat: 'xml',
  scopes: ['project', 'user'],
  flags: ['mcp', 'trust'],
  projectDir: '$(git rev-parse --show-toplevel)',
  hooksFile: (scope, root, env) =>
    scope === 'user'
      ? { path: join(codexHome(env), 'hooks.json'), display: '~/.codex/hooks.json' }
      : { path: join(root, '.codex', 'hooks.json'), display: '.codex/hooks.json' },
  parse: (p, cwd) =>
    parseHookCall(codexHost, p, cwd, () =>
      codexToolOk(p.tool_response, str(p.tool_use_id), str(p.transcript_path)),
    ),
  render: codexOutput,
  install(context) {
    const { scope, root, env, binary } = context;
    const hooks = codexHost.hooksFile!(scope, root, env);
    const user = scope === 'user';
    const dir = user ? codexHome(env) : join(root, '.codex');
    const edits: FileEdit[] = [
      hooksFileEdit(codexHost, hooks, binary),
      user
        ? protocolBlockEdit(join(codexHome(env), 'AGENTS.md'), '~/.codex/AGENTS.md')
        : protocolBlockEdit(join(root, 'AGENTS.md'), 'AGENTS.md'),
    ];
    if (context.mcp || context.remove)
      edits.push(
        textEdit({
          path: join(dir, 'config.toml'),
          display: `${user ? '~/.codex' : '.codex'}/config.toml`,
          body: codexMcpBlock(binary),
          markers: HASH_MARKERS,
        }),
      );
    if (context.trust || context.remove) edits.push(trustEdit(context, hooks.path));
    const notes = context.trust
      ? [
          user
            ? 'trusted the agent-state hooks in ~/.codex/config.toml; a changed hook command needs `--trust` again'
            : 'trusted this project and the agent-state hooks in ~/.codex/config.toml; a changed hook command needs `--trust` again',
        ]
      : [
          `Codex runs a hook only once you trust it, and \`codex exec\` skips an untrusted one without a word: run \`${codexTrustCommand(scope)}\` (it writes the trust into ~/.codex/config.toml), or review the hooks in Codex's /hooks`,
          ...(user
            ? []
            : ['Codex reads .codex/ only in a trusted project (`--trust` trusts this one too)']),
        ];
    return { edits, notes };
  },
  doctor: trustChecks,
};
