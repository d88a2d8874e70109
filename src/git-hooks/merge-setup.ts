// The merge driver's registration (docs/multi-agent.md): a block in the work tree's .gitattributes
// that routes the state files to the `agent-state` driver (committed: every clone and worktree
// merges the same way), and the driver's command in the repository's git config (per clone: the
// path of this machine's agent-state). `hooks install` adds both, `hooks uninstall` removes both.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitConfigGet, gitConfigRemoveSection, gitConfigSet } from '../git/hooks-git.js';
import { removeBlock, upsertBlock, type BlockMarkers } from '../integrations/managed-block.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { BinaryLocation } from './hook-block.js';

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

/** What install or uninstall did to the two places. */
export interface MergeDriverChange {
  /** .gitattributes at the work tree's top. */
  attributes: 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted';
  /** `merge.agent-state.*` in the repository's git config. */
  config: 'set' | 'unchanged' | 'removed';
  /** The driver command git runs. */
  driver: string | null;
}

/** Where the merge driver stands in a repository (for `hooks status`). */
export interface MergeDriverStatus {
  /** Whether .gitattributes routes the state files to the driver. */
  attributes: boolean;
  /** The configured command, or null. */
  driver: string | null;
  active: boolean;
}

// Single quotes keep any path verbatim when git runs the command through sh.
function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command git runs: this machine's node and agent-state (never npx). */
export function driverCommand(binary: BinaryLocation): string {
  return `${shQuote(binary.node)} ${shQuote(binary.script)} merge-driver %O %A %B %P`;
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** Registers the driver; idempotent. */
export function installMergeDriver(
  root: string,
  binary: BinaryLocation,
  env?: NodeJS.ProcessEnv,
): MergeDriverChange {
  const path = join(root, '.gitattributes');
  const before = readText(path);
  const after = upsertBlock(before ?? '', BODY, MARKERS);
  if (after !== before) writeFileAtomic(path, after);
  const command = driverCommand(binary);
  const current = gitConfigGet(root, `merge.${MERGE_DRIVER}.driver`, { env });
  if (current !== command) {
    gitConfigSet(root, `merge.${MERGE_DRIVER}.name`, 'agent-state: merge the state files by id', {
      env,
    });
    gitConfigSet(root, `merge.${MERGE_DRIVER}.driver`, command, { env });
  }
  return {
    attributes: before === null ? 'created' : after === before ? 'unchanged' : 'updated',
    config: current === command ? 'unchanged' : 'set',
    driver: command,
  };
}

/** Removes the registration: our block of .gitattributes (the file, if nothing else is left) and the config section. */
export function uninstallMergeDriver(root: string, env?: NodeJS.ProcessEnv): MergeDriverChange {
  const path = join(root, '.gitattributes');
  const before = readText(path);
  let attributes: MergeDriverChange['attributes'] = 'unchanged';
  if (before !== null) {
    const after = removeBlock(before, MARKERS);
    if (after !== before) {
      if (after.trim() === '') {
        rmSync(path, { force: true });
        attributes = 'deleted';
      } else {
        writeFileAtomic(path, after);
        attributes = 'removed';
      }
    }
  }
  const removed = gitConfigRemoveSection(root, `merge.${MERGE_DRIVER}`, { env });
  return { attributes, config: removed ? 'removed' : 'unchanged', driver: null };
}

/** Whether git would run the driver for the state files. */
export function mergeDriverStatus(root: string, env?: NodeJS.ProcessEnv): MergeDriverStatus {
  const text = readText(join(root, '.gitattributes')) ?? '';
  const attributes = text
    .split('\n')
    .some((line) => line.trim() === `${MERGE_PATTERN} merge=${MERGE_DRIVER}`);
  const driver = gitConfigGet(root, `merge.${MERGE_DRIVER}.driver`, { env });
  return { attributes, driver, active: attributes && driver !== null };
}
