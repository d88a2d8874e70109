// The Forbidden guard of the host hooks: which of the paths a tool call changes does goals.md
// forbid? It reads nothing but goals.md's Forbidden section and the mode (integrations.forbidden)
// and fails closed: a goals.md it cannot read refuses every write, a config.yaml it cannot read
// means enforce. Paths are checked as git sees them (symlinks resolved), whole trees a command
// deletes or moves are checked for what they hold, and a call that would weaken the guard itself
// (a Forbidden rule removed, enforcement off, the agent approving itself) is refused too.
import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { describeError, errorText } from '../error-report.js';
import { listRepoFiles } from '../git/list-files.js';
import {
  caseInsensitive,
  compileForbidden,
  GLOB_CHARS,
  type ForbiddenHit,
  type ForbiddenMatcher,
} from '../state/forbidden.js';
import { isDir } from '../state/find-root.js';
import type { StatePaths } from '../state/paths.js';
import { realPathOf } from '../state/repo-path.js';
import { readConfig, readGoals } from '../state/store.js';
import type { ForbiddenEntry } from '../types.js';
import { selfApproval, weakening } from './guard-weakening.js';
import type { HostHookTool } from './host-hook-event.js';
import type { PathWrite, WriteHow } from './shell-paths.js';
import { toolCheckModes, type ToolCheckModes, type ToolFinding } from './tool-check.js';
import { repoRelative, shellCommand, toolWrites } from './tool-paths.js';
import { orElse } from './or-else.js';

/** The guard's verdict: the mode its findings are handled in, and what it found. */
export interface ForbiddenGuard {
  mode: ToolCheckModes['forbidden'];
  findings: ToolFinding[];
}

// integrations.forbidden, enforce when config.yaml cannot be read; the user's approval in the
// host's environment (AGENT_STATE_ALLOW_FORBIDDEN=1) makes it warn.
function forbiddenMode(paths: StatePaths, env: NodeJS.ProcessEnv): ToolCheckModes['forbidden'] {
  const configured = orElse(() => readConfig(paths).value?.integrations.forbidden, undefined);
  return toolCheckModes({ forbidden: configured, pre_tool_use: 'off' }, env).forbidden;
}

// Real paths, once per path of a call (a long command names many).
const reals = new Map<string, string | null>();
function realpath(path: string): string | null {
  if (!reals.has(path))
    reals.set(
      path,
      orElse(() => realpathSync.native(path), null),
    );
  return reals.get(path)!;
}
const realish = (path: string) => realPathOf(path, realpath);

// The entries a glob word names now (as the shell expands it); [] when none.
function expand(pattern: string): string[] {
  let found = [pattern.startsWith('/') ? '/' : ''];
  for (const part of pattern.split('/').filter(Boolean)) {
    if (!GLOB_CHARS.test(part)) {
      found = found.map((f) => join(f, part));
      continue;
    }
    const match = picomatch(part);
    found = found.flatMap((f) =>
      orElse(() => readdirSync(f || '.').flatMap((n) => (match(n) ? [join(f, n)] : [])), []),
    );
  }
  return found;
}

/** A path a tool call changes, as the repository sees it ('' is the whole repository). */
interface Target {
  rel: string;
  how: Exclude<WriteHow, 'into' | 'inside'>;
}

// Each spelling of `path` inside the repository: as written, through the real path of its
// parent, and of itself. A tree that holds the repository is the whole repository.
function spellings(root: string, path: string, how: WriteHow): Target[] {
  if (how === 'inside' && !isDir(dirname(path))) return [];
  if (how === 'into' && isDir(path)) return [];
  const kind = how === 'write' || how === 'named' ? how : 'tree';
  const realRoot = realish(root);
  const out = new Map<string, Target>();
  for (const [base, p] of [
    [root, resolve(path)],
    [realRoot, join(realish(dirname(path)), basename(path))],
    [realRoot, realish(path)],
  ] as const) {
    const whole = kind === 'tree' && !relative(p, base).startsWith('..');
    const rel = whole ? '' : repoRelative(base, base, p);
    if (rel !== null) out.set(rel, { rel, how: kind });
  }
  return [...out.values()];
}

// Where a glob's zone starts (`src/storage` for `src/storage/**`): null when it can match at
// any depth; `exact` when the glob names that one path.
function zoneOf(glob: string): { base: string | null; exact: boolean } {
  const g = glob.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (!g.includes('/')) return { base: null, exact: false };
  const parts = g.split('/');
  const fixed = parts.findIndex((p) => GLOB_CHARS.test(p));
  return fixed < 0
    ? { base: g, exact: true }
    : { base: parts.slice(0, fixed).join('/'), exact: false };
}

const under = (path: string, dir: string) =>
  dir === '' || path === dir || path.startsWith(`${dir}/`);

// The Forbidden path a tree holds: a zone below it, or one of the Forbidden files git lists
// (`listed`: listed once for all the trees of a call; null when that failed).
function treeHit(
  rel: string,
  entries: readonly ForbiddenEntry[],
  match: ForbiddenMatcher,
  listed: () => ForbiddenHit[] | null,
): ForbiddenHit | null {
  const direct = match(rel);
  if (direct) return direct;
  let list = false;
  for (const entry of entries)
    for (const glob of entry.globs) {
      const { base, exact } = zoneOf(glob);
      if (base !== null && base !== '' && under(base, rel))
        return { path: base, glob, rule: entry.text };
      if (base === null || (!exact && under(rel, base))) list = true;
    }
  if (!list) return null;
  const hits = listed();
  if (hits === null) return { path: rel, glob: '', rule: 'the files under it cannot be listed' };
  return hits.find((h) => under(h.path, rel)) ?? null;
}

const GUARD = 'the guard itself';
const finding = (rule: string, message: string, path?: string): ToolFinding => ({
  kind: 'forbidden',
  rule,
  message,
  ...(path === undefined ? {} : { path }),
});

// The findings for goals.md and config.yaml when a call changes them: an edit tool's result is
// compared with what it replaces, a shell command cannot be told, so it is refused.
function guardedFiles(
  tool: HostHookTool,
  targets: readonly Target[],
  at: { paths: StatePaths; cwd: string; entries: readonly ForbiddenEntry[] },
): ToolFinding[] {
  const { paths, cwd, entries } = at;
  const out: ToolFinding[] = [];
  for (const file of [paths.goals, paths.config]) {
    const own = repoRelative(paths.root, paths.root, file)!;
    if (!targets.some((t) => (t.how === 'tree' ? under(own, t.rel) : own === t.rel))) continue;
    const named = (p: string) =>
      spellings(paths.root, isAbsolute(p) ? p : `${cwd}${sep}${p}`, 'write').some(
        (t) => t.rel === own,
      );
    const why =
      shellCommand(tool) === null
        ? weakening(tool, file, own, entries, named)
        : `the command changes ${own}, and agent-state cannot tell whether it keeps the Forbidden rules`;
    if (why) out.push(finding(own, why, own));
  }
  return out;
}

// The Forbidden path each target is or holds, once per path.
function zoneFindings(
  root: string,
  targets: readonly Target[],
  entries: readonly ForbiddenEntry[],
): ToolFinding[] {
  const match = compileForbidden(entries, { nocase: caseInsensitive(root) });
  const trees = targets.filter((t) => t.how === 'tree').map((t) => t.rel);
  let hits: ForbiddenHit[] | null | undefined;
  const listed = () => {
    if (hits === undefined)
      hits = orElse(() => listRepoFiles(root, trees).flatMap((f) => match(f) ?? []), null);
    return hits;
  };
  const seen = new Set<string>();
  const out: ToolFinding[] = [];
  for (const { rel, how } of targets) {
    const hit = how === 'tree' ? treeHit(rel, entries, match, listed) : match(rel);
    if (!hit || seen.has(`${how}\0${hit.path}`)) continue;
    seen.add(`${how}\0${hit.path}`);
    const is = `${hit.path} is Forbidden (goals.md: "${hit.rule}")`;
    const message =
      how === 'named'
        ? `the command names ${hit.path}, which is Forbidden (goals.md: "${hit.rule}"); agent-state cannot tell whether it writes there`
        : hit.path === rel
          ? is
          : `the command deletes or moves ${rel || 'the whole repository'}, and ${is}`;
    out.push(finding(hit.rule, message, hit.path));
  }
  return out;
}

// The most one call may name, in paths and in shell command characters: past it, checking it
// could outlast the host's hook timeout (after which the host goes ahead), so it is refused.
const MAX_PATHS = 2000;
const MAX_COMMAND = 100_000;

function check(
  tool: HostHookTool,
  cwd: string,
  paths: StatePaths,
  given?: PathWrite[],
): ToolFinding[] {
  const command = shellCommand(tool);
  const writes = (command?.length ?? 0) > MAX_COMMAND ? null : (given ?? toolWrites(tool));
  if (writes === null || writes.length > MAX_PATHS)
    return [
      finding(
        GUARD,
        `the call is larger than agent-state checks at once (${MAX_PATHS} paths, ${MAX_COMMAND} characters of shell): split it into smaller ones`,
      ),
    ];
  const found = writes.flatMap((w) => {
    const path = isAbsolute(w.path) ? w.path : `${cwd}${sep}${w.path}`;
    return (GLOB_CHARS.test(w.path) ? [path, ...expand(path)] : [path]).flatMap((p) =>
      spellings(paths.root, p, w.how),
    );
  });
  const findings: ToolFinding[] = [];
  if (command !== null && selfApproval(command))
    findings.push(
      finding(
        GUARD,
        'the command would approve Forbidden changes or switch the checks off (AGENT_STATE_ALLOW_FORBIDDEN, AGENT_STATE=0, --no-verify, core.hooksPath, removing the hooks): only the user approves',
      ),
    );
  let entries: ForbiddenEntry[];
  try {
    entries = readGoals(paths).goals.forbidden;
  } catch (error) {
    if (found.some((t) => t.how !== 'named'))
      findings.push(
        finding(
          '.agent/state/goals.md',
          `.agent/state/goals.md cannot be read (${problem(error)}), so agent-state cannot tell which paths are Forbidden and refuses every write until it is repaired (\`agent-state validate\` names the problem)`,
        ),
      );
    return findings;
  }
  findings.push(...guardedFiles(tool, found, { paths, cwd, entries }));
  return [...findings, ...zoneFindings(paths.root, found, entries)];
}

const problem = (error: unknown) => errorText(describeError(error));

/**
 * The Forbidden findings of one tool call: paths in a Forbidden zone, trees that hold one,
 * Forbidden paths named by a command that cannot be read, and changes that weaken the guard.
 * A check that fails refuses the call (the guard fails closed). `writes`: the paths the call
 * changes, when not read from its input (toolWrites).
 */
export function guardForbidden(
  tool: HostHookTool,
  cwd: string,
  paths: StatePaths,
  env: NodeJS.ProcessEnv,
  writes?: PathWrite[],
): ForbiddenGuard {
  const mode = forbiddenMode(paths, env);
  if (mode === 'off') return { mode, findings: [] };
  reals.clear();
  try {
    return { mode, findings: check(tool, cwd, paths, writes) };
  } catch (error) {
    const why = `agent-state could not check this tool call (${problem(error)}), so it refuses it`;
    return { mode, findings: [finding(GUARD, why)] };
  }
}
