// progress.yaml: parse, validate (schema + what a schema cannot say), and the initial value.
import type { Progress } from '../types.js';
import type { ParsedFile } from './parsed-file.js';
import { locate, type LocatedDocument, type Problem } from './yaml-doc.js';
import { checkYamlState, parseYamlState, type YamlStateSpec } from './yaml-state.js';

export const PROGRESS_SPEC: YamlStateSpec = {
  schema: 'progress',
  what: 'progress keys (version, revision, stage, plan, ...)',
  restoreHint:
    'restore it from git (`git checkout -- .agent/state/progress.yaml`) or see docs/protocol.md',
};

/** Parses and validates progress.yaml text. Never throws for bad content. */
export function parseProgress(text: string, display: string): ParsedFile<Progress> {
  const { data, located, problems } = parseYamlState(text, display, PROGRESS_SPEC);
  if (problems.length === 0) problems.push(...duplicateIds(data as Progress, located));
  return {
    value: problems.length ? undefined : (data as Progress),
    located,
    problems,
    warnings: [],
  };
}

/** Validates a progress value about to be written (a mutator must not produce bad state). */
export function checkProgress(data: unknown, located: LocatedDocument): Problem[] {
  const problems = checkYamlState(data, located, PROGRESS_SPEC);
  return problems.length ? problems : duplicateIds(data as Progress, located);
}

function duplicateIds(progress: Progress, located: LocatedDocument): Problem[] {
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  (progress.plan ?? []).forEach((item, index) => {
    const first = seen.get(item.id);
    if (first === undefined) {
      seen.set(item.id, index);
      return;
    }
    problems.push({
      location: locate(located, ['plan', index, 'id']),
      message: `plan id "${item.id}" is used twice (plan[${first}] and plan[${index}])`,
      hint: 'give each plan item its own id',
    });
  });
  return problems;
}
