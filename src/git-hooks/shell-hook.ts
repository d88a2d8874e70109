// Installing our block into one shell hook file (plain git and husky share this): append to what
// is there, refresh in place, or remove it and restore the file exactly. A user's file comes back
// byte for byte: bytes travel as latin1 (every byte maps to one char and back; our own text is
// ASCII), the mode is kept, and writes are atomic.
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import {
  hasBlock,
  isShellHook,
  removeBlock,
  shebangOf,
  upsertBlock,
  BLOCK_BEGIN,
} from './hook-block.js';
import type { GitHookFileChange } from './git-hook-types.js';

// The content and permission bits of a hook file; both null when it does not exist.
type HookFile = { text: string | null; mode: number | null };

/** Reads a hook file; refuses a symlink (rewriting it would replace the link by a copy). */
function readHookFile(path: string, display: string): HookFile {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, mode: null };
    throw error;
  }
  if (stat.isSymbolicLink())
    throw new UsageError(`${display} is a symbolic link; agent-state does not edit through links`, {
      hint: `add \`agent-state hook <name>\` to the file it points to yourself, or replace the link by a file`,
    });
  if (!stat.isFile())
    throw new UsageError(`${display} is not a regular file`, {
      hint: 'remove it or choose another hook manager with --manager',
    });
  return { text: readFileSync(path).toString('latin1'), mode: stat.mode & 0o7777 };
}

/** Writes a hook file atomically with the given permission bits. */
function writeHookFile(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, Buffer.from(text, 'latin1'));
  chmodSync(path, mode);
}

/** Adds or refreshes our block, keeping the user's content; a new file gets `header`, mode 755. */
export function installShellHook(
  path: string,
  display: string,
  body: readonly string[],
  header: string,
): GitHookFileChange['action'] {
  const file = readHookFile(path, display);
  if (file.text !== null && !isShellHook(file.text))
    throw new UsageError(
      `${display} is a ${shebangOf(file.text)} script; agent-state can only add itself to a shell hook`,
      {
        hint: `call \`agent-state hook <name>\` from that script yourself (and exit with its status)`,
      },
    );
  const next = upsertBlock(file.text, body, header);
  if (next === file.text) return 'unchanged';
  writeHookFile(path, next, file.mode ?? 0o755);
  return file.text === null ? 'created' : 'updated';
}

/** Removes our block: the file returns to its exact previous bytes, or is deleted if we made it. */
export function uninstallShellHook(
  path: string,
  display: string,
  header: string,
): GitHookFileChange['action'] {
  const file = readHookFile(path, display);
  if (file.text === null || !hasBlock(file.text)) return 'unchanged';
  const result = removeBlock(file.text, header);
  if (result.delete) {
    rmSync(path, { force: true });
    return 'deleted';
  }
  writeHookFile(path, result.text, file.mode ?? 0o755);
  return 'removed';
}

/** Whether the file holds our block, and why git might not reach it. */
export function shellHookStatus(
  path: string,
  display: string,
  options: { needsExec: boolean },
): { installed: boolean; problems: string[]; text: string | null } {
  const file = readHookFile(path, display);
  if (file.text === null || !hasBlock(file.text))
    return { installed: false, problems: [], text: file.text };
  const problems: string[] = [];
  if (options.needsExec && (file.mode === null || (file.mode & 0o111) === 0))
    problems.push(`${display} is not executable, so git skips it (fix: chmod +x ${display})`);
  const early = exitsBeforeBlock(file.text);
  if (early !== null)
    problems.push(
      `${display} line ${early} ends the script before agent-state's block is reached (fix: move the block above it)`,
    );
  return { installed: true, problems, text: file.text };
}

// A top-level `exit` or `exec` line before our block means the block never runs.
function exitsBeforeBlock(text: string): number | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === BLOCK_BEGIN) return null;
    if (/^(exit|exec)\b/.test(line)) return i + 1;
  }
  return null;
}
