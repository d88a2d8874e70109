// The staged state files under .agent/, checked with the same parsers as `validate`, on the
// content that is being committed (not the working copy). Pure: bytes in, findings out.
import { AgentStateError } from '../errors.js';
import { parseConfig } from '../state/config.js';
import { parseGoals } from '../state/goals.js';
import { parseProgress } from '../state/progress.js';
import { decodeStateText } from '../state/read-text.js';
import { schemaProblems } from '../state/schema-problems.js';
import { validateAgainst } from '../state/validators.js';
import { parseYaml, type Problem } from '../state/yaml-doc.js';
import { stateFileKind, type HookFinding, type StateFileKind } from './staged-check.js';

/** One staged file under .agent/: its repository path and staged bytes (null: deleted). */
export interface StagedStateFile {
  path: string;
  /** The path relative to `.agent/`. */
  inAgent: string;
  bytes: Uint8Array | null;
}

const RESTORE =
  'fix the file and `git add` it again, or unstage it (git restore --staged -- <file>)';

function problemFindings(problems: readonly Problem[], path: string): HookFinding[] {
  return problems.map((p) => ({
    kind: 'invalid-state' as const,
    severity: 'block' as const,
    path,
    line: p.location.line,
    column: p.location.column,
    message: p.message,
    hint: p.hint,
  }));
}

// Evidence: YAML front matter between `---` lines, checked against evidence.schema.json.
function evidenceProblems(text: string, display: string): Problem[] {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match)
    return [
      {
        location: { file: display, line: 1 },
        message: `${display} has no YAML front matter (--- id, at, kind, summary ---)`,
        hint: 'write evidence with `agent-state evidence add`, or add the front matter',
      },
    ];
  const located = parseYaml(match[1]!, display);
  const data: unknown = located.problems.length === 0 ? located.doc.toJS() : undefined;
  const problems = located.problems.length
    ? located.problems
    : schemaProblems(validateAgainst('evidence', data), data, located);
  // The front matter starts on line 2 of the file.
  return problems.map((p) => ({
    ...p,
    location: { ...p.location, line: p.location.line === undefined ? 2 : p.location.line + 1 },
  }));
}

// The agent whose own file this is: its folder's name (state/agents/<name>/progress.yaml).
function ownerOf(path: string): string {
  return path.split('/').slice(-2)[0]!;
}

// The parser of each kind of state file, as `validate` runs it.
const PROBLEMS: Partial<Record<StateFileKind, (text: string, path: string) => readonly Problem[]>> =
  {
    config: (text, path) => parseConfig(text, path).problems,
    progress: (text, path) => parseProgress(text, path).problems,
    agent: (text, path) => parseProgress(text, path, ownerOf(path)).problems,
    evidence: evidenceProblems,
  };

function checkOne(path: string, bytes: Uint8Array, kind: StateFileKind): HookFinding[] {
  let text: string;
  try {
    const allowEmpty = kind === 'config' || kind === 'goals';
    text = decodeStateText(bytes, { display: path, allowEmpty, restoreHint: RESTORE });
  } catch (error) {
    if (!(error instanceof AgentStateError)) throw error;
    const location = error.location ?? { file: path };
    return problemFindings(
      [{ location, message: error.message, hint: error.hint ?? RESTORE }],
      path,
    );
  }
  if (kind !== 'goals') return problemFindings(PROBLEMS[kind]?.(text, path) ?? [], path);
  return parseGoals(text, path).warnings.map((w) => ({
    kind: 'state-warning' as const,
    severity: 'warn' as const,
    path,
    line: w.line,
    message: w.message,
    hint: 'edit .agent/state/goals.md (see docs/protocol.md)',
    ...(w.once === undefined ? {} : { once: w.once }),
  }));
}

/** Findings for the staged files under .agent/ (deleted ones are not checked). */
export function checkStagedStateFiles(files: readonly StagedStateFile[]): HookFinding[] {
  const findings: HookFinding[] = [];
  for (const file of files) {
    const kind = stateFileKind(file.inAgent);
    if (kind === 'local' && file.bytes !== null) {
      findings.push({
        kind: 'local-file',
        severity: 'warn',
        path: file.path,
        message: `${file.path} is machine-local state (git-ignored by .agent/.gitignore) but is staged`,
        hint: `unstage it: git rm --cached -- ${file.path}`,
      });
      continue;
    }
    if (file.bytes !== null) findings.push(...checkOne(file.path, file.bytes, kind));
  }
  return findings;
}
