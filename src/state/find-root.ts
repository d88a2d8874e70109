// Locating the state root from any subdirectory, without spawning git (start-up cost matters:
// hooks call the CLI after every tool call).
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { NotInitializedError } from '../errors.js';
import { orElse } from './or-else.js';
import { AGENT_DIR, statePaths, type StatePaths } from './paths.js';
import { linkRefused } from './repo-path.js';

/** Where a task directory lives (or would live) for a working directory. */
export interface RootInfo {
  /** The directory that holds (or would hold) `.agent/`. */
  root: string;
  /** The enclosing git work tree's top level, or null outside git. */
  gitRoot: string | null;
  /** Whether `.agent/` already exists at `root`. */
  initialized: boolean;
}

/** Whether `path` is a directory (symlinks followed); false when it cannot be read. */
export function isDir(path: string): boolean {
  return orElse(() => statSync(path).isDirectory(), false);
}

/** The names in directory `dir`; none when it cannot be read. */
export function listDir(dir: string): string[] {
  return orElse(() => readdirSync(dir), []);
}

// An unrelated tool's ~/.agent must not be mistaken for ours: require one of our files.
function hasAgentState(dir: string): boolean {
  const agent = `${dir}/${AGENT_DIR}`;
  return isDir(agent) && (existsSync(`${agent}/state`) || existsSync(`${agent}/config.yaml`));
}

// A symlink in the state would carry writes and deletes out of the repository: none is followed,
// at any depth but artifacts/, whose files are written, removed and served by their real path.
function refuseLinkedState(root: string): void {
  const agent = join(root, AGENT_DIR);
  const stat = lstatSync(agent, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) throw linkRefused(AGENT_DIR, agent);
  const walk = (dir: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: the read that needs it says so
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const inner = `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) throw linkRefused(inner, path);
      if (entry.isDirectory() && inner !== `${AGENT_DIR}/artifacts`) walk(path, inner);
    }
  };
  if (stat?.isDirectory()) walk(agent, AGENT_DIR);
}

// Not past the enclosing git work tree (a `.git` directory, or a linked worktree's `.git` file).
/** Where `cwd`'s state lives: nearest `.agent/` above, else the git top (or `cwd`); refuses links. */
export function locateRoot(cwd: string = process.cwd()): RootInfo {
  const info = walkUp(resolve(cwd));
  refuseLinkedState(info.root);
  return info;
}

function walkUp(start: string): RootInfo {
  for (let dir = start; ; dir = dirname(dir)) {
    const isGitTop = existsSync(`${dir}/.git`);
    if (hasAgentState(dir))
      return { root: dir, gitRoot: isGitTop ? dir : findGitRoot(dir), initialized: true };
    if (isGitTop) return { root: dir, gitRoot: dir, initialized: false };
    if (dirname(dir) === dir) return { root: start, gitRoot: null, initialized: false };
  }
}

function findGitRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(`${dir}/.git`)) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The root of an initialized state, or NotInitializedError (exit 3). */
export function initializedRoot(info: RootInfo): string {
  // Only the local, git-ignored part is here: the state is on another branch or commit, or in a
  // stash (which of them is not known here), and an `init` here would leave untracked files that
  // stop `git switch` going back.
  if (!info.initialized && info.gitRoot !== null && isDir(`${info.root}/${AGENT_DIR}`))
    throw new NotInitializedError(
      `the agent-state state is not on this branch: ${info.root}/${AGENT_DIR}/ holds only local files (untracked here: leave ${AGENT_DIR}/ out of any commit on this branch), and ${AGENT_DIR}/state/ and ${AGENT_DIR}/config.yaml are not in this checkout (on another branch or commit, or stashed)`,
      {
        hint: `switch back to the branch that has them (\`git switch -\`), or \`git stash pop\` if you stashed them; \`git log --all --oneline -- ${AGENT_DIR}/state\` lists the commits that hold the state`,
      },
    );
  if (!info.initialized)
    throw new NotInitializedError(`no ${AGENT_DIR}/ directory found in ${info.root} or above`, {
      hint: 'run `agent-state init` at the root of your repository',
    });
  return info.root;
}

/** Finds the initialized state root for `cwd`, or throws NotInitializedError (exit 3). */
export function findRoot(cwd: string = process.cwd()): StatePaths {
  return statePaths(initializedRoot(locateRoot(cwd)));
}

/** An initialized state root and its enclosing git top level. */
export interface Repo {
  paths: StatePaths;
  /** The git top level (a linked worktree's own directory), or null outside git. */
  gitRoot: string | null;
}

/** Finds the initialized state root for `cwd` (NotInitializedError) and its git top level. */
export function findRepo(cwd?: string): Repo {
  const info = locateRoot(cwd);
  return { paths: statePaths(initializedRoot(info)), gitRoot: info.gitRoot };
}
