// The merge driver's registration (docs/multi-agent.md): a block of attributes that routes the
// state files to the `agent-state` driver, and the driver's command in the repository's git config
// (per clone: the path of this machine's agent-state). The attributes go to the repository's own
// `info/attributes` (shared by its worktrees, never committed, so the tree stays clean), or with
// `shared` to the work tree's .gitattributes, to be committed. `hooks install` adds both,
// `hooks uninstall` removes them from both places.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  gitConfigGet,
  gitConfigRemoveSection,
  gitConfigSet,
  gitPath,
} from '../git/git-hook-calls.js';
import { removeBlock, upsertBlock, type BlockMarkers } from '../text/managed-block.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { shQuote, type BinaryLocation } from './hook-block.js';
import { shownPath } from './hook-context.js';
import type { MergeDriverChange, MergeDriverStatus } from './git-hook-types.js';

/** The merge driver's name in .gitattributes and git config. */
export const MERGE_DRIVER = 'agent-state';

/** The files the driver merges: every YAML file of the committed state. */
export const MERGE_PATTERN = '.agent/state/**/*.yaml';

const MARKERS: BlockMarkers = {
  begin: '# >>> agent-state >>> (managed by `agent-state hooks install`; uninstall removes it)',
  end: '# <<< agent-state <<<',
};

const BODY = [
  '# git merges the state files by id, with `agent-state merge-driver` (docs/multi-agent.md).',
  `${MERGE_PATTERN} merge=${MERGE_DRIVER}`,
].join('\n');

/** The command git runs: this machine's node and agent-state (never npx). */
export function driverCommand(binary: BinaryLocation): string {
  return `${shQuote(binary.node)} ${shQuote(binary.script)} merge-driver %O %A %B %P`;
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

// The two places attributes can live: git's own (not committed) and the work tree's.
function attributesFiles(root: string, env?: NodeJS.ProcessEnv): { local: string; shared: string } {
  return { local: gitPath(root, 'info/attributes', { env }), shared: join(root, '.gitattributes') };
}

// Our block out of one attributes file: the file goes when nothing else is left in it.
function removeFrom(path: string): MergeDriverChange['attributes'] {
  const before = readText(path);
  if (before === null) return 'unchanged';
  const after = removeBlock(before, MARKERS);
  if (after === before) return 'unchanged';
  if (after.trim() === '') {
    rmSync(path, { force: true });
    return 'deleted';
  }
  writeFileAtomic(path, after);
  return 'removed';
}

/** Registers the driver, idempotent; `shared`: attributes in .gitattributes (to commit), not git's info/attributes (either way the other loses our block). */
export function installMergeDriver(
  root: string,
  binary: BinaryLocation,
  options: { env?: NodeJS.ProcessEnv; shared?: boolean } = {},
): MergeDriverChange {
  const { env } = options;
  const files = attributesFiles(root, env);
  const path = options.shared ? files.shared : files.local;
  removeFrom(options.shared ? files.local : files.shared);
  const before = readText(path);
  const after = upsertBlock(before ?? '', BODY, MARKERS);
  if (after !== before) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, after);
  }
  const command = driverCommand(binary);
  const current = gitConfigGet(root, `merge.${MERGE_DRIVER}.driver`, { env });
  if (current !== command) {
    const name = 'agent-state: merge the state files by id';
    gitConfigSet(root, `merge.${MERGE_DRIVER}.name`, name, { env });
    gitConfigSet(root, `merge.${MERGE_DRIVER}.driver`, command, { env });
  }
  return {
    attributes_file: shownPath(root, path),
    attributes: before === null ? 'created' : after === before ? 'unchanged' : 'updated',
    config: current === command ? 'unchanged' : 'set',
    driver: command,
  };
}

/** Removes the registration: our block from both attributes files, and the config section. */
export function uninstallMergeDriver(root: string, env?: NodeJS.ProcessEnv): MergeDriverChange {
  const files = attributesFiles(root, env);
  const results = [files.local, files.shared].map((path) => ({ path, action: removeFrom(path) }));
  const changed = results.find((r) => r.action !== 'unchanged') ?? results[0]!;
  const removed = gitConfigRemoveSection(root, `merge.${MERGE_DRIVER}`, { env });
  return {
    attributes_file: shownPath(root, changed.path),
    attributes: changed.action,
    config: removed ? 'removed' : 'unchanged',
    driver: null,
  };
}

/** Whether git would run the driver for the state files. */
export function mergeDriverStatus(root: string, env?: NodeJS.ProcessEnv): MergeDriverStatus {
  const files = attributesFiles(root, env);
  const line = `${MERGE_PATTERN} merge=${MERGE_DRIVER}`;
  const routed = [files.local, files.shared].filter((path) =>
    (readText(path) ?? '').split('\n').some((l) => l.trim() === line),
  );
  const driver = gitConfigGet(root, `merge.${MERGE_DRIVER}.driver`, { env });
  return {
    attributes: routed.length > 0,
    attributes_files: routed.map((p) => shownPath(root, p)),
    driver,
    active: routed.length > 0 && driver !== null,
  };
}
