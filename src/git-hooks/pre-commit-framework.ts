// pre-commit (the framework): agent-state ships a .pre-commit-hooks.yaml, and `hooks install`
// prints the `repo: local` snippet to add; it never edits .pre-commit-config.yaml itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isMap, isSeq, parseDocument, visit } from 'yaml';
import { GIT_HOOK_NAMES, type GitHookName } from './git-hook-types.js';

export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';

/** The hook ids agent-state uses in pre-commit configs and in its .pre-commit-hooks.yaml. */
export const PRE_COMMIT_IDS = Object.fromEntries(
  GIT_HOOK_NAMES.map((hook) => [
    hook,
    hook === 'pre-commit' ? 'agent-state' : `agent-state-${hook}`,
  ]),
) as Record<GitHookName, string>;

// pre-commit runs `entry` without a shell: `sh -c` finds the project's agent-state, then PATH,
// and does nothing when neither exists (the tool's absence never blocks a commit).
const ENTRY =
  'sh -c \'if [ -x node_modules/.bin/agent-state ]; then exec node_modules/.bin/agent-state hook "$@"; ' +
  'elif command -v agent-state >/dev/null 2>&1; then exec agent-state hook "$@"; fi\' agent-state';

const NAMES: Record<GitHookName, string> = {
  'pre-commit': 'agent-state: state files, Forbidden paths, completion markers',
  'post-checkout': 'agent-state: record a branch switch',
  'post-merge': 'agent-state: record a merge',
};

/**
 * One hook definition. The pre-commit hook names no `stages`: the stage is called `commit` before
 * pre-commit 3.2 and `pre-commit` after it, and `hook pre-commit` ignores runs at other stages.
 */
export function preCommitHookDefinition(hook: GitHookName): Record<string, unknown> {
  return {
    id: PRE_COMMIT_IDS[hook],
    name: NAMES[hook],
    entry: ENTRY,
    args: [hook],
    language: 'system',
    pass_filenames: false,
    always_run: true,
    ...(hook === 'pre-commit' ? {} : { stages: [hook] }),
  };
}

// Block style for the mappings, flow style (`[pre-commit]`) for the short lists.
function render(value: unknown): string {
  const doc = new Document(value);
  visit(doc, { Seq: (_key, node) => void (node.flow = node.items.every((i) => !isMap(i))) });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The text of the package's .pre-commit-hooks.yaml (a unit test keeps the shipped file equal). */
export function preCommitManifest(): string {
  const hooks = GIT_HOOK_NAMES.map(preCommitHookDefinition);
  return `# agent-state hooks for https://pre-commit.com (docs/hooks.md).\n${render(hooks)}`;
}

/** The `repo: local` block to add under `repos:` in .pre-commit-config.yaml. */
export function preCommitSnippet(hooks: readonly GitHookName[]): string {
  return render([{ repo: 'local', hooks: hooks.map(preCommitHookDefinition) }])
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}

/** Whether the repository uses pre-commit. */
export function usesPreCommit(root: string): boolean {
  return existsSync(join(root, PRE_COMMIT_CONFIG));
}

/** Which of our hooks .pre-commit-config.yaml lists (by id, in any repo entry); file null without one. */
export function preCommitInstalled(root: string): { file: string | null; hooks: GitHookName[] } {
  const path = join(root, PRE_COMMIT_CONFIG);
  if (!existsSync(path)) return { file: null, hooks: [] };
  const file = PRE_COMMIT_CONFIG;
  const doc = parseDocument(readFileSync(path, 'utf8'));
  if (doc.errors.length > 0) return { file, hooks: [] };
  const ids = new Set<string>();
  const repos = doc.get('repos', true);
  if (isSeq(repos))
    for (const repo of repos.items) {
      const hooks = isMap(repo) ? repo.get('hooks', true) : undefined;
      if (isSeq(hooks))
        for (const hook of hooks.items) if (isMap(hook)) ids.add(String(hook.get('id')));
    }
  return { file, hooks: GIT_HOOK_NAMES.filter((hook) => ids.has(PRE_COMMIT_IDS[hook])) };
}
