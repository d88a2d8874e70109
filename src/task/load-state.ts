// What a command reads: the whole state of the task as the acting agent sees it. A named agent
// sees the shared progress.yaml with its own keys laid over from its own file (own-state.ts).
import { resolveAgent } from '../state/agent-name.js';
import { findRoot } from '../state/find-root.js';
import { valueOrThrow, type ParsedFile } from '../state/parsed-file.js';
import type { StatePaths } from '../state/paths.js';
import { readAgentProgress, readConfig, readGoals, readProgress } from '../state/store.js';
import type { BaseOptions, Config, Goals, Progress, Warning } from '../types.js';
import { emptyOwn, overlayProgress } from './own-state.js';

/** Everything a command needs to know about the task, read from disk. */
export interface LoadedState {
  paths: StatePaths;
  config: Config;
  goals: Goals;
  /** What the acting agent sees: progress.yaml, with a named agent's own keys from its own file. */
  progress: Progress;
  /** The acting agent's name; null for the default agent. */
  agent: string | null;
  /** Non-fatal findings (goals.md without an anchor, an empty section, ...). */
  warnings: Warning[];
}

/** What `agent` sees: progress.yaml with a named agent's own keys laid over (problems of both) */
export function readProgressFor(paths: StatePaths, agent: string | null): ParsedFile<Progress> {
  const shared = readProgress(paths);
  if (agent === null) return shared;
  const own = readAgentProgress(paths, agent);
  const problems = [...shared.problems, ...own.problems];
  const value =
    problems.length || !shared.value
      ? undefined
      : overlayProgress(shared.value, own.value ?? emptyOwn(agent));
  return { value, problems, warnings: [] };
}

/** Loads the task's whole state (throws on an invalid file); `paths`, `config`: already known. */
export function loadState(
  options: BaseOptions & { paths?: StatePaths; config?: Config } = {},
): LoadedState {
  const paths = options.paths ?? findRoot(options.cwd);
  const agent = resolveAgent(options);
  const config = options.config ?? valueOrThrow(readConfig(paths));
  const goals = readGoals(paths);
  const progress = valueOrThrow(readProgressFor(paths, agent));
  return { paths, config, goals: goals.goals, progress, agent, warnings: goals.warnings };
}
