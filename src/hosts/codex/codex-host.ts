// Codex CLI: hooks in .codex/hooks.json (project; ~/.codex/hooks.json for user), the protocol
// block in AGENTS.md, and optionally the MCP server as a managed block in .codex/config.toml.
// Format: https://developers.openai.com/codex/hooks (see docs/integrations.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HASH_MARKERS, removeBlock } from '../../text/managed-block.js';
import { claudeOutput, MCP_SERVER_NAME } from '../claude/claude-host.js';
import {
  doctorCheck,
  scopeFile,
  type DoctorCheck,
  type HostAdapter,
  type InstallContext,
} from '../host-adapter.js';
import { parseHookCall, str } from '../host-hook-payload.js';
import { readHostFile, textEdit, type FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { hooksFileEdit, hostHookSpecs, isHostHook, mergeHooks } from '../install/hook-groups.js';
import { parseJsonObject } from '../install/json-text.js';
import { protocolBlockEdit } from '../install/protocol-block.js';
import { codexToolOk } from './codex-exit-code.js';
import { codexHookTrusts, codexTrustBlock, codexTrustGaps, readCodexTrust } from './codex-trust.js';
import { orElse } from '../or-else.js';

// Codex's home: $CODEX_HOME, else ~/.codex.
const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(homeDir(env), '.codex');

// The one command that makes Codex run agent-state's hooks (printed by integrate and doctor).
const trustCommand = (scope: string) =>
  `agent-state integrate codex${scope === 'user' ? ' --scope user' : ''} --trust`;

/** The managed block in $CODEX_HOME/config.toml that trusts the project and our hooks. */
function trustEdit(context: InstallContext, hooksPath: string): FileEdit {
  const projectRoot = context.scope === 'project' ? context.root : null;
  const specs = hostHookSpecs(codexHost, context.binary);
  const isOurs = isHostHook(codexHost);
  return textEdit(
    join(codexHome(context.env), 'config.toml'),
    '~/.codex/config.toml',
    (before) => {
      // The hooks as they will be once hooks.json is merged: trust keys carry group positions.
      const current = readHostFile(hooksPath, 'hooks.json') ?? '';
      const merged = mergeHooks(parseJsonObject(current, hooksPath), specs, isOurs);
      const outside = readCodexTrust(removeBlock(before, HASH_MARKERS));
      return codexTrustBlock(outside, codexHookTrusts(merged, hooksPath, isOurs), projectRoot);
    },
    HASH_MARKERS,
  );
}

// Codex skips untrusted hooks, and a whole untrusted project's .codex/, without a word.
function trustChecks(root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  return (['project', 'user'] as const).flatMap((scope) => {
    const hooks = codexHost.hooksFile!(scope, root, env);
    // Absent, or reported by the hooks check: nothing to say.
    const read = () => parseJsonObject(readFileSync(hooks.path, 'utf8'), hooks.path);
    const settings = orElse(read, {});
    const trusts = codexHookTrusts(settings, hooks.path, isHostHook(codexHost));
    if (trusts.length === 0) return [];
    // No config.toml: nothing is trusted.
    const config = orElse(() => readFileSync(join(codexHome(env), 'config.toml'), 'utf8'), '');
    const gaps = codexTrustGaps(readCodexTrust(config), trusts, scope === 'project' ? root : null);
    const name = `codex trust (${hooks.display})`;
    const fix = `run \`${trustCommand(scope)}\``;
    if (gaps.projectDenied)
      return doctorCheck(
        name,
        'fail',
        'Codex marks this project untrusted (~/.codex/config.toml: trust_level = "untrusted"), so it loads nothing from .codex/ here',
        `trust the project in Codex if you mean to, then ${fix}`,
      );
    if (!gaps.project && gaps.untrusted.length === 0)
      return doctorCheck(name, 'ok', `${trusts.length} hooks trusted`);
    const changed = gaps.modified.length
      ? ` (${gaps.modified.length} changed since they were)`
      : '';
    const why = gaps.project ? ['this project is not trusted'] : [];
    if (gaps.untrusted.length)
      why.push(`${gaps.untrusted.length} of ${trusts.length} hooks are not trusted${changed}`);
    const said = `Codex skips agent-state's hooks without a word: ${why.join('; ')}`;
    return doctorCheck(name, 'fail', said, fix);
  });
}

export const codexHost: HostAdapter = {
  name: 'codex',
  // What `integrate codex` registers; timeouts in seconds.
  events: {
    SessionStart: { kind: 'session-start', timeout: 20 },
    UserPromptSubmit: { kind: 'prompt', timeout: 5 },
    // Codex's edit tools: `apply_patch` (matchers may also say Edit or Write) and Bash.
    PreToolUse: { kind: 'pre-tool', matcher: 'Bash|apply_patch', timeout: 5 },
    // In the background: Codex does not wait for it (the Stop hook waits for what still runs).
    PostToolUse: { kind: 'post-tool', timeout: 5, extra: { async: true } },
    PreCompact: { kind: 'pre-compact', timeout: 10 },
    PostCompact: { kind: 'post-compact', timeout: 10 },
    Stop: { kind: 'stop', timeout: 10 },
  },
  statusFormat: 'xml',
  // Codex [0.171] shows a background hook's answer only at the next user turn.
  signalsBeforeTool: true,
  scopes: ['project', 'user'],
  flags: ['mcp', 'trust'],
  projectDir: '$(git rev-parse --show-toplevel)',
  hooksFile: (scope, root, env) =>
    scopeFile(scope === 'user' ? codexHome(env) : null, root, '.codex', 'hooks.json'),
  parse: (p, cwd) =>
    parseHookCall(codexHost, p, cwd, () =>
      codexToolOk(p.tool_response, str(p.tool_use_id), str(p.transcript_path)),
    ),
  // Codex [0.171] answers as Claude Code, except that PreCompact takes only `continue`,
  // `stopReason`, `suppressOutput` and `systemMessage` (a `decision` makes its output invalid),
  // and a deny reason gets ". Command: ..." appended.
  render: (event, outcome) =>
    event.kind !== 'pre-compact'
      ? claudeOutput(event, outcome)
      : outcome.block
        ? { continue: false, stopReason: outcome.block }
        : {},
  install(context) {
    const { scope, root, env, binary } = context;
    const user = scope === 'user' ? codexHome(env) : null;
    const hooks = codexHost.hooksFile!(scope, root, env);
    const config = scopeFile(user, root, '.codex', 'config.toml');
    const edits = [
      hooksFileEdit(codexHost, hooks, binary),
      user
        ? protocolBlockEdit(join(user, 'AGENTS.md'), '~/.codex/AGENTS.md')
        : protocolBlockEdit(join(root, 'AGENTS.md'), 'AGENTS.md'),
    ];
    const mcpBlock = `[mcp_servers.${MCP_SERVER_NAME}]\ncommand = ${JSON.stringify(binary.executable)}\nargs = ["mcp"]`;
    if (context.mcp || context.remove)
      edits.push(textEdit(config.path, config.display, mcpBlock, HASH_MARKERS));
    if (context.trust || context.remove) edits.push(trustEdit(context, hooks.path));
    const notes = context.trust
      ? [
          `trusted ${user ? '' : 'this project and '}the agent-state hooks in ~/.codex/config.toml; a changed hook command needs \`--trust\` again`,
        ]
      : [
          `Codex runs a hook only once you trust it, and \`codex exec\` skips an untrusted one without a word: run \`${trustCommand(scope)}\` (it writes the trust into ~/.codex/config.toml), or review the hooks in Codex's /hooks`,
          ...(user
            ? []
            : ['Codex reads .codex/ only in a trusted project (`--trust` trusts this one too)']),
        ];
    return { edits, notes };
  },
  doctor: trustChecks,
};
