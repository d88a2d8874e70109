// progress.yaml: parse and validate (schema, and what it cannot say). An agent's own file is read
// by the same code with the rules of its place: it names its agent and holds no shared key.
import type { Progress } from '../types.js';
import type { ParsedFile } from './parsed-file.js';
import { locate, type LocatedDocument, type Problem } from './yaml-doc.js';
import {
  checkYamlState,
  parseYamlState,
  PROTOCOL_VERSION,
  type YamlStateSpec,
} from './yaml-state.js';

/** The top-level keys only an agent's own file holds. */
export const AGENT_FILE_KEYS = [
  'agent',
  'last_seen',
] as const satisfies readonly (keyof Progress)[];

/** Keys of progress.yaml that an agent's own file must not hold (they are shared). */
export const SHARED_ONLY_KEYS = ['plan', 'markers'] as const satisfies readonly (keyof Progress)[];

export const PROGRESS_SPEC: YamlStateSpec = {
  schema: 'progress',
  what: 'progress keys (version, revision, stage, plan, ...)',
  restoreHint:
    'restore it from git (`git checkout -- .agent/state/progress.yaml`) or see docs/protocol.md',
};

/** Parses and validates progress.yaml text (`agent`: its own file); bad content never throws. */
export function parseProgress(
  text: string,
  display: string,
  agent: string | null = null,
): ParsedFile<Progress> {
  const parsed = parseYamlState(text, display, PROGRESS_SPEC);
  const { data, located } = parsed;
  const problems = [...parsed.problems, ...duplicateIds(data, located)];
  if (parsed.problems.length === 0) problems.push(...placeProblems(data, located, agent));
  return {
    value: problems.length ? undefined : (data as Progress),
    located,
    problems,
    warnings: [],
  };
}

/** Validates a progress value about to be written (a mutator must not produce bad state). */
export function checkProgress(
  data: unknown,
  located: LocatedDocument,
  agent: string | null = null,
): Problem[] {
  const problems = [
    ...checkYamlState(data, located, PROGRESS_SPEC),
    ...duplicateIds(data, located),
  ];
  return problems.length ? problems : placeProblems(data, located, agent);
}

// What the schema cannot say: which keys belong to which file.
function placeProblems(data: unknown, located: LocatedDocument, agent: string | null): Problem[] {
  const value = data as Record<string, unknown>;
  const problems: Problem[] = [];
  if (agent === null) {
    for (const key of AGENT_FILE_KEYS)
      if (value[key] !== undefined)
        problems.push({
          location: locate(located, [key], true),
          message: `"${key}" belongs in an agent's own file (.agent/state/agents/NAME/progress.yaml), not in the shared progress.yaml`,
          hint: `remove the "${key}" key (docs/multi-agent.md)`,
        });
    return problems;
  }
  if (value.agent !== agent)
    problems.push({
      location: locate(located, ['agent']),
      message:
        value.agent === undefined
          ? `the own file of agent "${agent}" does not say whose it is`
          : `the own file of agent "${agent}" says agent: ${JSON.stringify(value.agent)}`,
      hint: `set agent: ${agent} (the name of its folder)`,
    });
  const shared = [
    ...SHARED_ONLY_KEYS.filter((key) => value[key] !== undefined),
    ...((value.memory as { durable?: unknown } | undefined)?.durable !== undefined
      ? ['memory.durable']
      : []),
  ];
  for (const key of shared)
    problems.push({
      location: locate(located, key.split('.'), true),
      message: `"${key}" is shared: it belongs in .agent/state/progress.yaml, not in an agent's own file`,
      hint: `move it to .agent/state/progress.yaml (docs/multi-agent.md)`,
    });
  return problems;
}

// Listed beside schema problems (validate lists all), so this reads a plan the schema may refuse;
// nothing in a file that did not parse, is no mapping, or has a newer protocol version.
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
