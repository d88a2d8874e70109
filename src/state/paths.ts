// The .agent/ layout (protocol v1): one place that knows where every file lives.
import { join } from 'node:path';

export const AGENT_DIR = '.agent';

/** The committed parts of `.agent/` (DESIGN §2), relative to the state root. */
export const COMMITTED_STATE_PATHS = ['.agent/state', '.agent/config.yaml', '.agent/.gitignore'];

/** Absolute paths of every file and folder of a task directory. */
export interface StatePaths {
  root: string;
  agentDir: string;
  config: string;
  stateDir: string;
  goals: string;
  progress: string;
  evidenceDir: string;
  /** The file lists of big completion markers (src/markers/marker-list.ts). */
  markersDir: string;
  /** Named agents' own files: `agents/<name>/progress.yaml` (docs/multi-agent.md). */
  agentsDir: string;
  logDir: string;
  artifactsDir: string;
  lock: string;
  gitignore: string;
}

/** Resolves the layout under a repository root. */
export function statePaths(root: string): StatePaths {
  const agentDir = join(root, AGENT_DIR);
  const stateDir = join(agentDir, 'state');
  return {
    root,
    agentDir,
    config: join(agentDir, 'config.yaml'),
    stateDir,
    goals: join(stateDir, 'goals.md'),
    progress: join(stateDir, 'progress.yaml'),
    evidenceDir: join(stateDir, 'evidence'),
    markersDir: join(stateDir, 'markers'),
    agentsDir: join(stateDir, 'agents'),
    logDir: join(agentDir, 'log'),
    artifactsDir: join(agentDir, 'artifacts'),
    lock: join(agentDir, 'lock'),
    gitignore: join(agentDir, '.gitignore'),
  };
}

/** The own progress file of a named agent. */
export function agentProgressPath(paths: StatePaths, agent: string): string {
  return join(paths.agentsDir, agent, 'progress.yaml');
}

/** A path relative to the root, POSIX-style, for messages and stored references. */
export function displayPath(paths: StatePaths, absolute: string): string {
  const rel = absolute.startsWith(paths.root + '/')
    ? absolute.slice(paths.root.length + 1)
    : absolute;
  return rel.split('\\').join('/');
}
