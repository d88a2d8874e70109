// `doctor`: checks the installation end to end and says what to fix. The binary the hooks run
// must resolve; every integrated host's config must parse and hold all of our hooks; the state
// must be valid; git hooks should guard the state. Read-only.
import { existsSync, readFileSync } from 'node:fs';
import { AgentStateError, formatLocation } from '../errors.js';
import { hooksStatus } from '../git-hooks/status.js';
import { installHint } from '../package-root.js';
import { locateRoot } from '../state/find-root.js';
import { displayPath, statePaths, type StatePaths } from '../state/paths.js';
import { readConfig, readGoals, readProgress } from '../state/store.js';
import type { Problem } from '../state/yaml-doc.js';
import type { BaseOptions } from '../types.js';
import {
  doctorCheck as check,
  type DoctorCheck,
  type HostAdapter,
  type HostFile,
} from './host-adapter.js';
import { HOST_NAMES } from './host-names.js';
import { loadHost } from './hosts.js';
import { isHostHook, ourHandlers } from './install/hook-groups.js';
import { programFound, whichAgentState } from './install/hook-binary.js';
import { parseJsonObject, type JsonObject } from './install/json-text.js';

export type { CheckStatus, DoctorCheck } from './host-adapter.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface DoctorResult {
  root: string;
  /** False when any check failed (warnings do not fail). */
  ok: boolean;
  checks: DoctorCheck[];
}

// The program a hook command starts: its first shell word, the project directory expanded.
function hookProgram(command: string, host: HostAdapter, root: string): string {
  const dir = host.projectDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const expanded = command.replace(new RegExp(`"?${dir}"?`, 'g'), root).trim();
  const quoted = /^'([^']*)'|^"([^"]*)"/.exec(expanded);
  return quoted ? (quoted[1] ?? quoted[2]!) : expanded.split(/\s+/)[0]!;
}

// A host's hooks file: it parses, holds every event we register, and starts a program that exists.
function checkHooksFile(
  host: HostAdapter,
  file: HostFile,
  root: string,
  env: NodeJS.ProcessEnv,
): DoctorCheck[] {
  const name = `${host.name} hooks (${file.display})`;
  if (!existsSync(file.path)) return [];
  let settings: JsonObject;
  try {
    settings = parseJsonObject(readFileSync(file.path, 'utf8'), file.display);
  } catch (error) {
    const at = error instanceof AgentStateError && error.location;
    const why = `${at ? formatLocation(at) : file.display}: ${messageOf(error)}`;
    return [
      check(name, 'fail', why, `fix the JSON, then run \`agent-state integrate ${host.name}\``),
    ];
  }
  const found = new Map(
    ourHandlers(settings, isHostHook(host)).map((x) => [x.event, String(x.handler.command)]),
  );
  if (found.size === 0) return [];
  const missing = Object.keys(host.events).filter(
    (e) => host.events[e]!.timeout !== undefined && !found.has(e),
  );
  const again = `run \`agent-state integrate ${host.name}\` again`;
  const checks = [
    missing.length
      ? check(name, 'warn', `installed, but without ${missing.join(', ')}`, again)
      : check(name, 'ok', `${found.size} hooks installed`),
  ];
  for (const program of new Set([...found.values()].map((c) => hookProgram(c, host, root))))
    if (!programFound(program, env))
      checks.push(
        check(
          `${host.name} hook binary`,
          'fail',
          `the hooks run \`${program}\`, which is not found or not executable`,
          `put agent-state on PATH (${installHint()}) or ${again} to point the hooks at this installation`,
        ),
      );
  return checks;
}

// Every hooks file of a host, then what the host checks itself (trust, a plugin).
function checkHost(host: HostAdapter, root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const files = host.hooksFile ? host.scopes.map((scope) => host.hooksFile!(scope, root, env)) : [];
  const checks = files.flatMap((file) => checkHooksFile(host, file, root, env));
  return [...checks, ...host.doctor(root, env, checks.length > 0)];
}

function checkState(paths: StatePaths): DoctorCheck[] {
  const files: [string, () => readonly Pick<Problem, 'location' | 'message'>[]][] = [
    [paths.config, () => readConfig(paths).problems],
    [paths.goals, () => (readGoals(paths), [])],
    [paths.progress, () => readProgress(paths).problems],
  ];
  return files.map(([file, problems]) => {
    const name = `state (${displayPath(paths, file)})`;
    try {
      const first = problems()[0];
      if (!first) return check(name, 'ok', 'valid');
      const where = `${formatLocation(first.location)}: ${first.message}`;
      return check(name, 'fail', where, 'run `agent-state validate` and fix what it lists');
    } catch (error) {
      return check(name, 'fail', messageOf(error), 'run `agent-state validate`');
    }
  });
}

// The git hooks guard the state at commit time (Forbidden paths, invalid state files).
function checkGitHooks(root: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const warn = (message: string, fix = 'run `agent-state hooks install`') =>
    check('git hooks', 'warn', message, fix);
  try {
    const status = hooksStatus({ cwd: root, env });
    const broken = status.entries.find((e) => e.installed && e.problems.length > 0);
    if (broken) {
      const [, why, fix] = /^(.*?)(?: \(fix: (.*)\))?$/.exec(broken.problems[0]!)!;
      return warn(`${broken.file}: ${why}`, fix);
    }
    if (status.active) {
      const where = status.entries.find((e) => e.hook === 'pre-commit' && e.installed)!;
      return check('git hooks', 'ok', `pre-commit installed (${where.manager}: ${where.file})`);
    }
  } catch (error) {
    return warn(messageOf(error), 'run `agent-state hooks status`');
  }
  return warn('no agent-state pre-commit hook (Forbidden paths are not checked at commit time)');
}

/** Runs every check for the repository of `cwd`. */
export async function runDoctor(options: BaseOptions = {}): Promise<DoctorResult> {
  const env = options.env ?? process.env;
  const info = locateRoot(options.cwd);
  const root = info.root;
  const onPath = whichAgentState(env);
  const hosts = await Promise.all(HOST_NAMES.map(loadHost));
  const hostChecks = hosts.flatMap((host) => checkHost(host, root, env));
  const noHost = 'run `agent-state integrate claude` (or codex, gemini, opencode)';
  const checks: DoctorCheck[] = [
    onPath
      ? check('binary', 'ok', `agent-state on PATH: ${onPath}`)
      : check(
          'binary',
          'warn',
          'agent-state is not on PATH',
          `hooks written with an absolute path still work; to put it on PATH: ${installHint()}`,
        ),
    ...(hostChecks.length > 0
      ? hostChecks
      : [check('host integrations', 'warn', 'no agent host is wired to agent-state here', noHost)]),
    ...(!info.initialized
      ? [check('state', 'fail', `no .agent/ in ${root}`, 'run `agent-state init`')]
      : checkState(statePaths(root))),
  ];
  if (info.initialized && info.gitRoot) checks.push(checkGitHooks(root, env));
  return { root, ok: checks.every((c) => c.status !== 'fail'), checks };
}
