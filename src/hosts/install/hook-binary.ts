// How a host should start agent-state from a hook: the installed binary directly (never npx,
// which adds ~440 ms to every tool call). A project-local install is referred to through the
// host's project-directory variable so a committed settings file works on every clone.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join, relative, sep } from 'node:path';
import { packageRoot } from '../../package-root.js';
import { shellQuote } from '../../text/safe-text.js';
import { orElse } from '../or-else.js';

/** The shell word that starts agent-state, as written into host configs. */
export interface HookBinary {
  /** E.g. `agent-state`, `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-state`, `'/opt/x/bin/agent-state.js'`. */
  command: string;
  /** The same program for configs that spawn without a shell (MCP server entries). */
  executable: string;
  /** How it was chosen, for the report. */
  how: 'given' | 'project' | 'path' | 'absolute';
}

export interface ResolveBinaryOptions {
  /** An explicit command (`--bin`): used as is. */
  given?: string;
  /** The repository root (for a project-local install). */
  root: string;
  /** The host's variable for the project directory (`$CLAUDE_PROJECT_DIR`), when it has one. */
  projectDirVar?: string;
  env: NodeJS.ProcessEnv;
}

const realpathOrNull = (path: string) => orElse(() => realpathSync(path), null);

/** Finds `agent-state` on PATH; returns its real path, or null. */
export function whichAgentState(env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const found = realpathOrNull(join(dir, 'agent-state'));
    if (found) return found;
  }
  return null;
}

/** Chooses the command a hook runs to start this very installation of agent-state. */
export function resolveHookBinary(options: ResolveBinaryOptions): HookBinary {
  if (options.given !== undefined && options.given.trim() !== '')
    return { command: options.given.trim(), executable: options.given.trim(), how: 'given' };
  const pkg = packageRoot();
  const bin = join(pkg, 'bin', 'agent-state.js');
  const fromRoot = relative(options.root, pkg);
  const local = fromRoot.split(sep).join('/') === 'node_modules/agent-state';
  // The project command exists only when npm linked it (not with --no-bin-links).
  const linked = existsSync(join(options.root, 'node_modules', '.bin', 'agent-state'));
  if (local && options.projectDirVar && linked)
    return {
      command: `"${options.projectDirVar}"/node_modules/.bin/agent-state`,
      executable: 'node_modules/.bin/agent-state',
      how: 'project',
    };
  const onPath = whichAgentState(options.env);
  if (onPath !== null && onPath === realpathOrNull(bin))
    return { command: 'agent-state', executable: 'agent-state', how: 'path' };
  return { command: shellQuote(bin), executable: bin, how: 'absolute' };
}

/** Whether the program a hook starts exists: an executable path, or `agent-state` on PATH. */
export function programFound(program: string, env: NodeJS.ProcessEnv): boolean {
  if (program.includes('/'))
    return orElse(() => (accessSync(program, constants.X_OK), true), false);
  return program === 'agent-state' ? whichAgentState(env) !== null : false;
}
