// Reading every state file for verify: like `validate`, a bad file is a list of located problems,
// not a throw, so that one report can name them all.
import { AgentStateError, formatLocation } from '../errors.js';
import type { EvidenceEntry } from '../evidence/evidence-file.js';
import { readEvidenceFolder } from '../evidence/evidence-folder.js';
import type { StatePaths } from '../state/paths.js';
import { readConfig, readGoals } from '../state/store.js';
import { readProgressFor } from '../task/load-state.js';
import type { Config, Goals, Progress, Warning } from '../types.js';
import type { Problem } from '../state/yaml-doc.js';

/** A problem of a state file, flattened for reports and --json. */
export interface StateProblem {
  /** `file:line:column`. */
  at: string;
  file: string;
  line?: number;
  column?: number;
  message: string;
  hint: string;
}

export interface CheckedState {
  config: Config | undefined;
  goals: Goals | undefined;
  progress: Progress | undefined;
  /** The evidence entries that parse, oldest first. */
  evidence: EvidenceEntry[];
  problems: StateProblem[];
  warnings: Warning[];
}

function flatten(problem: Problem): StateProblem {
  return {
    at: formatLocation(problem.location),
    ...problem.location,
    message: problem.message,
    hint: problem.hint,
  };
}

// A file that cannot even be read as text (binary, empty, too big) is one problem of that file.
function attempt<T>(read: () => T): { value: T | undefined; problems: StateProblem[] } {
  try {
    return { value: read(), problems: [] };
  } catch (error) {
    if (!(error instanceof AgentStateError) || error.code !== 'INVALID') throw error;
    const location = error.location ?? { file: '.agent' };
    return {
      value: undefined,
      problems: [flatten({ location, message: error.message, hint: error.hint ?? '' })],
    };
  }
}

/** Reads config, goals, progress (with `agent`'s own file) and evidence, collecting problems. */
export function readStateChecked(paths: StatePaths, agent: string | null = null): CheckedState {
  const problems: StateProblem[] = [];
  const config = attempt(() => readConfig(paths));
  problems.push(...config.problems, ...(config.value?.problems.map(flatten) ?? []));
  const goals = attempt(() => readGoals(paths));
  problems.push(...goals.problems);
  const progress = attempt(() => readProgressFor(paths, agent));
  problems.push(...progress.problems, ...(progress.value?.problems.map(flatten) ?? []));
  const evidence = attempt(() => readEvidenceFolder(paths));
  problems.push(...evidence.problems, ...(evidence.value?.problems.map(flatten) ?? []));
  return {
    config: config.value?.value,
    goals: goals.value?.goals,
    progress: progress.value?.value,
    evidence: evidence.value?.entries ?? [],
    problems,
    warnings: goals.value?.warnings ?? [],
  };
}
