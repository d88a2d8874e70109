// lefthook: our job merged into the user's lefthook.yml through the yaml Document API, so their
// comments, key order and jobs stay as they were.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { InvalidStateError, UsageError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { portableCall } from './hook-block.js';
import { GIT_HOOK_NAMES, type GitHookFileChange, type GitHookName } from './git-hook-types.js';

/** The config files lefthook reads, in its order of precedence. */
export const LEFTHOOK_CONFIGS = [
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  '.config/lefthook.yml',
  '.config/lefthook.yaml',
];
const UNSUPPORTED = ['lefthook.json', '.lefthook.json', 'lefthook.toml', '.lefthook.toml'];

/** Our job's name in every hook; it is how install, uninstall and status find it. */
export const LEFTHOOK_JOB = 'agent-state';

// lefthook's templates for the arguments git passes to the hook.
const ARGS: Record<GitHookName, string> = {
  'pre-commit': '',
  'post-checkout': '{1} {2} {3}',
  'post-merge': '{1}',
};

/** The `run` script of our job (lefthook runs it with sh -c). */
export function lefthookRun(hook: GitHookName): string {
  return `${[
    '# agent-state (docs/hooks.md): skip with AGENT_STATE=0; does nothing when it is not installed.',
    'if [ "${AGENT_STATE-}" = 0 ]; then exit 0; fi',
    ...portableCall(hook, ARGS[hook]),
  ].join('\n')}\n`;
}

/** The lefthook config of the repository (relative path), or null. */
export function findLefthookConfig(root: string): string | null {
  return LEFTHOOK_CONFIGS.find((name) => existsSync(join(root, name))) ?? null;
}

/** Whether the repository uses lefthook (any of its config formats). */
export function usesLefthook(root: string): boolean {
  return [...LEFTHOOK_CONFIGS, ...UNSUPPORTED].some((name) => existsSync(join(root, name)));
}

function load(root: string, file: string): { doc: Document; text: string | null } {
  const path = join(root, file);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const doc = parseDocument(text ?? '', { keepSourceTokens: false });
  const error = doc.errors[0];
  if (error) {
    const [line, column] = [error.linePos?.[0]?.line, error.linePos?.[0]?.col];
    throw new InvalidStateError(`YAML syntax: ${error.message.split('\n')[0]}`, {
      location: { file, line, column },
      hint: `fix ${file} first; agent-state changes nothing in a file it cannot parse`,
    });
  }
  if (doc.contents !== null && !isMap(doc.contents))
    throw new InvalidStateError(`${file} is not a YAML mapping of hooks`, {
      location: { file, line: 1 },
      hint: 'see https://lefthook.dev/configuration/',
    });
  return { doc, text };
}

function configFile(root: string): string {
  const found = findLefthookConfig(root);
  if (found) return found;
  const other = UNSUPPORTED.find((name) => existsSync(join(root, name)));
  if (other)
    throw new UsageError(`${other}: agent-state edits only YAML lefthook configs`, {
      hint: `add a job running \`agent-state hook pre-commit\` to ${other} yourself (docs/hooks.md)`,
    });
  return 'lefthook.yml';
}

function jobIndex(jobs: unknown): number {
  if (!isSeq(jobs)) return -1;
  return jobs.items.findIndex((item) => isMap(item) && item.get('name') === LEFTHOOK_JOB);
}

function addJob(doc: Document, hook: GitHookName): void {
  const run = lefthookRun(hook);
  if (!isMap(doc.get(hook, true))) doc.set(hook, doc.createNode({ jobs: [] }));
  const map = doc.get(hook, true) as YAMLMap;
  // A hook written with the older `commands:` map gets our command there, not a mixed style.
  const commands = map.get('commands', true);
  if (isMap(commands) && !map.has('jobs')) {
    const existing = commands.get(LEFTHOOK_JOB, true);
    if (!isMap(existing) || existing.get('run') !== run)
      commands.set(LEFTHOOK_JOB, doc.createNode({ run }));
    return;
  }
  if (!isSeq(map.get('jobs', true))) map.set('jobs', doc.createNode([]));
  const jobs = map.get('jobs', true) as unknown as YAMLSeq;
  const job = jobs.items[jobIndex(jobs)] as YAMLMap | undefined;
  if (!job) jobs.items.push(doc.createNode({ name: LEFTHOOK_JOB, run }));
  else if (job.get('run') !== run) job.set('run', run);
}

// Removes our job; a hook left with nothing but an empty job list goes too.
function removeJob(doc: Document, hook: GitHookName): boolean {
  const node = doc.get(hook, true);
  if (!isMap(node)) return false;
  const commands = node.get('commands', true);
  const jobs: unknown = node.get('jobs', true);
  const index = jobIndex(jobs);
  if (index !== -1) (jobs as YAMLSeq).items.splice(index, 1);
  const removed = (isMap(commands) && commands.delete(LEFTHOOK_JOB)) || index !== -1;
  const empty = (n: unknown) => n === undefined || ((isSeq(n) || isMap(n)) && n.items.length === 0);
  const onlyJobs = node.items.every(
    (pair) => isScalar(pair.key) && ['jobs', 'commands'].includes(String(pair.key.value)),
  );
  if (removed && onlyJobs && empty(jobs) && empty(commands)) doc.delete(hook);
  return removed;
}

const serialize = (doc: Document) => (doc.contents === null ? '' : doc.toString({ lineWidth: 0 }));

/** Merges our jobs into the lefthook config (creating lefthook.yml if there is none). */
export function installLefthook(root: string, hooks: readonly GitHookName[]): GitHookFileChange[] {
  const file = configFile(root);
  const { doc, text } = load(root, file);
  if (doc.contents === null) doc.contents = doc.createNode({}) as YAMLMap;
  for (const hook of hooks) addJob(doc, hook);
  const next = serialize(doc);
  const action = next === text ? 'unchanged' : text === null ? 'created' : 'updated';
  if (action !== 'unchanged') writeFileAtomic(join(root, file), next);
  return hooks.map((hook) => ({ manager: 'lefthook', file, hook, action }));
}

/** Removes our jobs; deletes the config when nothing else is left in it. */
export function uninstallLefthook(
  root: string,
  hooks: readonly GitHookName[],
): GitHookFileChange[] {
  const file = findLefthookConfig(root);
  if (!file) return [];
  const { doc, text } = load(root, file);
  const removed = hooks.filter((hook) => removeJob(doc, hook));
  if (removed.length === 0) return [];
  const next = serialize(doc);
  const nothingLeft = isMap(doc.contents) && doc.contents.items.length === 0 && !/#/.test(next);
  if (nothingLeft) rmSync(join(root, file), { force: true });
  else if (next !== text) writeFileAtomic(join(root, file), next);
  const action = nothingLeft ? 'deleted' : 'removed';
  return removed.map((hook) => ({ manager: 'lefthook', file, hook, action }));
}

/** Which of our hooks the lefthook config holds. */
export function lefthookInstalled(root: string): { file: string | null; hooks: GitHookName[] } {
  const file = findLefthookConfig(root);
  if (!file) return { file: null, hooks: [] };
  const { doc } = load(root, file);
  const hooks = GIT_HOOK_NAMES.filter((hook) => {
    const node = doc.get(hook, true);
    if (!isMap(node)) return false;
    const commands = node.get('commands', true);
    return (
      jobIndex(node.get('jobs', true)) !== -1 || (isMap(commands) && commands.has(LEFTHOOK_JOB))
    );
  });
  return { file, hooks };
}
