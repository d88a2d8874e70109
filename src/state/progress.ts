// progress.yaml: parse, validate (schema + what a schema cannot say), and the initial value.
import type { Progress } from '../types.js';
import type { ParsedFile } from './parsed-file.js';
import { locate, type LocatedDocument, type Problem } from './yaml-doc.js';
import {
  checkYamlState,
  parseYamlState,
  PROTOCOL_VERSION,
  type YamlStateSpec,
} from './yaml-state.js';

export const PROGRESS_SPEC: YamlStateSpec = {
  schema: 'progress',
  what: 'progress keys (version, revision, stage, plan, ...)',
  restoreHint:
    'restore it from git (`git checkout -- .agent/state/progress.yaml`) or see docs/protocol.md',
};

/** Parses and validates progress.yaml text. Never throws for bad content. */
export function parseProgress(text: string, display: string): ParsedFile<Progress> {
  const parsed = parseYamlState(text, display, PROGRESS_SPEC);
  const { data, located } = parsed;
  const problems = [...parsed.problems, ...duplicateIds(data, located)];
  return {
    value: problems.length ? undefined : (data as Progress),
    located,
    problems,
    warnings: [],
  };
}

/** Validates a progress value about to be written (a mutator must not produce bad state). */
export function checkProgress(data: unknown, located: LocatedDocument): Problem[] {
  return [...checkYamlState(data, located, PROGRESS_SPEC), ...duplicateIds(data, located)];
}

// A duplicate id is a problem of its own, listed next to schema problems (validate lists every
// problem), so this reads a plan the schema may have refused. Nothing is checked in a file that
// did not parse, is not a mapping, or has a newer protocol version.
function duplicateIds(data: unknown, located: LocatedDocument): Problem[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  const { version, plan } = data as { version?: unknown; plan?: unknown };
  if ((typeof version === 'number' && version > PROTOCOL_VERSION) || !Array.isArray(plan))
    return [];
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  plan.forEach((item: unknown, index) => {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, index);
      return;
    }
    problems.push({
      location: locate(located, ['plan', index, 'id']),
      message: `plan id "${id}" is used twice (plan[${first}] and plan[${index}])`,
      hint: 'give each plan item its own id',
    });
  });
  return problems;
}
