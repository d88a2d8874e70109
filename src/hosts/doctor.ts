// `doctor`: checks the installation end to end and says what to fix. The binary the hooks run
// must resolve; every integrated host's config must parse and hold all of our hooks; the state
// must be valid; git hooks should guard the state. Read-only.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { AgentStateError, formatLocation } from '../errors.js';
import { hooksStatus } from '../git-hooks/status.js';
import { locateRoot } from '../state/find-root.js';
import { displayPath, statePaths, type StatePaths } from '../state/paths.js';
import { readConfig, readGoals, readProgress } from '../state/store.js';
import type { BaseOptions } from '../types.js';
import { CLAUDE_HOOK_EVENTS, claudeSettingsPath, isClaudeHook } from './claude/claude-host.js';
import { CODEX_HOOK_EVENTS, codexTrustCommand, isCodexHook } from './codex/codex-host.js';
import { codexHookTrusts, codexTrustGaps, readCodexTrust } from './codex/codex-trust.js';
import { GEMINI_HOOK_EVENTS, isGeminiHook } from './gemini/gemini-host.js';
import { geminiTrust, geminiUserDir } from './gemini/gemini-trust.js';
import type { HandlerTest } from './install/hook-groups.js';
import { whichAgentState } from './install/hook-binary.js';
import { isJsonObject, parseJsonObject, type JsonObject } from './install/json-text.js';
import { OPENCODE_PLUGIN_HEADER } from './opencode/opencode-host.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One finding of `doctor`. */
export interface DoctorCheck {
  /** What was checked, e.g. `claude hooks (.claude/settings.json)`. */
  name: string;
  status: CheckStatus;
  message: string;
  /** How to fix it (empty when ok). */
  fix: string;
}

export interface DoctorResult {
  root: string;
  /** False when any check failed (warnings do not fail). */
  ok: boolean;
  checks: DoctorCheck[];
}

const check = (name: string, status: CheckStatus, message: string, fix = ''): DoctorCheck => ({
  name,
  status,
  message,
  fix,
});

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

// The program a hook command starts: its first shell word, with the project variables expanded.
function hookProgram(command: string, root: string): string {
  const expanded = command
    .replace(
      /"?\$(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|\(git rev-parse --show-toplevel\))"?/g,
      root,
    )
    .trim();
  const quoted = /^'([^']*)'|^"([^"]*)"/.exec(expanded);
  return quoted ? (quoted[1] ?? quoted[2]!) : expanded.split(/\s+/)[0]!;
}

function resolvable(program: string, env: NodeJS.ProcessEnv): boolean {
  if (program.includes('/')) {
    try {
      accessSync(program, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
  return program === 'agent-state' ? whichAgentState(env) !== null : false;
}

interface HostFile {
  host: string;
  path: string;
  display: string;
  events: readonly { event: string }[];
  isOurs: HandlerTest;
}

function ourHandlers(settings: JsonObject, isOurs: HandlerTest): Map<string, string> {
  const found = new Map<string, string>();
  const hooks = settings.hooks;
  if (!isJsonObject(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = isJsonObject(group) && Array.isArray(group.hooks) ? group.hooks : [];
      for (const h of handlers)
        if (isOurs(h) && isJsonObject(h)) found.set(event, String(h.command));
    }
  }
  return found;
}

function checkHostFile(file: HostFile, root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const name = `${file.host} hooks (${file.display})`;
  if (!existsSync(file.path)) return [];
  let settings: JsonObject;
  try {
    settings = parseJsonObject(readFileSync(file.path, 'utf8'), file.display);
  } catch (error) {
    const where =
      error instanceof AgentStateError && error.location
        ? formatLocation(error.location)
        : file.display;
    return [
      check(
        name,
        'fail',
        `${where}: ${error instanceof Error ? error.message : String(error)}`,
        `fix the JSON, then run \`agent-state integrate ${file.host}\``,
      ),
    ];
  }
  const found = ourHandlers(settings, file.isOurs);
  if (found.size === 0) return [];
  const missing = file.events.map((e) => e.event).filter((e) => !found.has(e));
  const checks: DoctorCheck[] = [];
  if (missing.length)
    checks.push(
      check(
        name,
        'warn',
        `installed, but without ${missing.join(', ')}`,
        `run \`agent-state integrate ${file.host}\` again`,
      ),
    );
  else checks.push(check(name, 'ok', `${found.size} hooks installed`));
  const programs = new Set([...found.values()].map((c) => hookProgram(c, root)));
  for (const program of programs) {
    if (!resolvable(program, env))
      checks.push(
        check(
          `${file.host} hook binary`,
          'fail',
          `the hooks run \`${program}\`, which is not found or not executable`,
          `install agent-state (npm install -g agent-state) or run \`agent-state integrate ${file.host}\` again to point the hooks at this installation`,
        ),
      );
  }
  return checks;
}

// Gemini CLI loads no hooks at all (project or user) in a folder it does not trust, and exits
// with code 55 when run headless there: the hooks would look installed and never run.
function checkGeminiTrust(root: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const trust = geminiTrust(root, env);
  if (trust.trusted) return check('gemini folder trust', 'ok', `trusted: ${trust.reason}`);
  return check(
    'gemini folder trust',
    'fail',
    `Gemini CLI does not trust this folder (${trust.reason}), so it runs none of the hooks (headless it exits with code 55)`,
    'run `agent-state integrate gemini --trust`',
  );
}

// Codex skips untrusted hooks, and a whole untrusted project's .codex/, without a word.
function checkCodexTrust(root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const codexHome = env.CODEX_HOME || join(home(env), '.codex');
  const checks: DoctorCheck[] = [];
  for (const scope of ['project', 'user'] as const) {
    const hooksPath =
      scope === 'project' ? join(root, '.codex', 'hooks.json') : join(codexHome, 'hooks.json');
    let settings: JsonObject;
    try {
      settings = parseJsonObject(readFileSync(hooksPath, 'utf8'), hooksPath);
    } catch {
      continue; // absent, or reported by the hooks check
    }
    const trusts = codexHookTrusts(settings, hooksPath, isCodexHook);
    if (trusts.length === 0) continue;
    let config = '';
    try {
      config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    } catch {
      /* no config.toml: nothing is trusted */
    }
    const gaps = codexTrustGaps(readCodexTrust(config), trusts, scope === 'project' ? root : null);
    const name = `codex trust (${scope === 'project' ? '.codex/hooks.json' : '~/.codex/hooks.json'})`;
    const fix = `run \`${codexTrustCommand(scope)}\``;
    if (gaps.projectDenied)
      checks.push(
        check(
          name,
          'fail',
          'Codex marks this project untrusted (~/.codex/config.toml: trust_level = "untrusted"), so it loads nothing from .codex/ here',
          `trust the project in Codex if you mean to, then ${fix}`,
        ),
      );
    else if (gaps.project || gaps.untrusted.length > 0) {
      const why = [
        gaps.project ? 'this project is not trusted' : '',
        gaps.untrusted.length
          ? `${gaps.untrusted.length} of ${trusts.length} hooks are not trusted${gaps.modified.length ? ` (${gaps.modified.length} changed since they were)` : ''}`
          : '',
      ].filter(Boolean);
      checks.push(
        check(
          name,
          'fail',
          `Codex skips agent-state's hooks without a word: ${why.join('; ')}`,
          fix,
        ),
      );
    } else checks.push(check(name, 'ok', `${trusts.length} hooks trusted`));
  }
  return checks;
}

function checkState(paths: StatePaths): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const files: [
    string,
    () => {
      problems: { location: { file: string; line?: number; column?: number }; message: string }[];
    },
  ][] = [
    [paths.config, () => readConfig(paths)],
    [paths.goals, () => ({ problems: [], ...readGoals(paths) })],
    [paths.progress, () => readProgress(paths)],
  ];
  for (const [file, read] of files) {
    const display = displayPath(paths, file);
    try {
      const first = read().problems[0];
      checks.push(
        first
          ? check(
              `state (${display})`,
              'fail',
              `${formatLocation(first.location)}: ${first.message}`,
              'run `agent-state validate` and fix what it lists',
            )
          : check(`state (${display})`, 'ok', 'valid'),
      );
    } catch (error) {
      checks.push(
        check(
          `state (${display})`,
          'fail',
          error instanceof Error ? error.message : String(error),
          'run `agent-state validate`',
        ),
      );
    }
  }
  return checks;
}

// The git hooks guard the state at commit time (Forbidden paths, invalid state files).
function checkGitHooks(root: string, env: NodeJS.ProcessEnv): DoctorCheck {
  try {
    const status = hooksStatus({ cwd: root, env });
    const broken = status.entries.find((e) => e.installed && e.problems.length > 0);
    if (broken)
      return check(
        'git hooks',
        'warn',
        `${broken.file}: ${broken.problems[0]}`,
        'run `agent-state hooks install`',
      );
    if (status.active) {
      const where = status.entries.find((e) => e.hook === 'pre-commit' && e.installed)!;
      return check('git hooks', 'ok', `pre-commit installed (${where.manager}: ${where.file})`);
    }
  } catch (error) {
    return check(
      'git hooks',
      'warn',
      error instanceof Error ? error.message : String(error),
      'run `agent-state hooks status`',
    );
  }
  return check(
    'git hooks',
    'warn',
    'no agent-state pre-commit hook (Forbidden paths are not checked at commit time)',
    'run `agent-state hooks install`',
  );
}

/** Runs every check for the repository of `cwd`. */
export function runDoctor(options: BaseOptions = {}): DoctorResult {
  const env = options.env ?? process.env;
  const info = locateRoot(options.cwd);
  const root = info.root;
  const checks: DoctorCheck[] = [];
  const onPath = whichAgentState(env);
  checks.push(
    onPath
      ? check('binary', 'ok', `agent-state on PATH: ${onPath}`)
      : check(
          'binary',
          'warn',
          'agent-state is not on PATH',
          'hooks written with an absolute path still work; `npm install -g agent-state` puts it on PATH',
        ),
  );
  const claudeUser = env.CLAUDE_CONFIG_DIR || join(home(env), '.claude');
  const hostFiles: HostFile[] = [
    ...(['project', 'local', 'user'] as const).map((scope) => ({
      host: 'claude',
      ...claudeSettingsPath({ scope, root, userDir: claudeUser }),
      events: CLAUDE_HOOK_EVENTS,
      isOurs: isClaudeHook,
    })),
    {
      host: 'codex',
      path: join(root, '.codex', 'hooks.json'),
      display: '.codex/hooks.json',
      events: CODEX_HOOK_EVENTS,
      isOurs: isCodexHook,
    },
    {
      host: 'codex',
      path: join(env.CODEX_HOME || join(home(env), '.codex'), 'hooks.json'),
      display: '~/.codex/hooks.json',
      events: CODEX_HOOK_EVENTS,
      isOurs: isCodexHook,
    },
    {
      host: 'gemini',
      path: join(root, '.gemini', 'settings.json'),
      display: '.gemini/settings.json',
      events: GEMINI_HOOK_EVENTS,
      isOurs: isGeminiHook,
    },
    {
      host: 'gemini',
      path: join(geminiUserDir(env), 'settings.json'),
      display: '~/.gemini/settings.json',
      events: GEMINI_HOOK_EVENTS,
      isOurs: isGeminiHook,
    },
  ];
  const hostChecks = hostFiles.flatMap((f) => checkHostFile(f, root, env));
  if (hostChecks.some((c) => c.name.startsWith('gemini hooks')))
    hostChecks.push(checkGeminiTrust(root, env));
  hostChecks.push(...checkCodexTrust(root, env));
  const plugin = join(root, '.opencode', 'plugins', 'agent-state.js');
  if (existsSync(plugin) && readFileSync(plugin, 'utf8').startsWith(OPENCODE_PLUGIN_HEADER)) {
    const bin = /^const BIN = (".*");$/m.exec(readFileSync(plugin, 'utf8'))?.[1];
    const program = bin ? (JSON.parse(bin) as string) : '';
    const local = /^const BIN_IN_PROJECT = true;$/m.test(readFileSync(plugin, 'utf8'));
    const path = local && !isAbsolute(program) ? join(root, program) : program;
    hostChecks.push(
      resolvable(path, env)
        ? check('opencode plugin (.opencode/plugins/agent-state.js)', 'ok', 'installed')
        : check(
            'opencode plugin (.opencode/plugins/agent-state.js)',
            'fail',
            `the plugin runs \`${program}\`, which is not found`,
            'run `agent-state integrate opencode` again',
          ),
    );
  }
  if (hostChecks.length === 0)
    hostChecks.push(
      check(
        'host integrations',
        'warn',
        'no agent host is wired to agent-state here',
        'run `agent-state integrate claude` (or codex, gemini, opencode)',
      ),
    );
  checks.push(...hostChecks);
  if (!info.initialized) {
    checks.push(check('state', 'fail', `no .agent/ in ${root}`, 'run `agent-state init`'));
  } else {
    checks.push(...checkState(statePaths(root)));
    if (info.gitRoot) checks.push(checkGitHooks(root, env));
  }
  return { root, ok: checks.every((c) => c.status !== 'fail'), checks };
}
