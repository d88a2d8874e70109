// Reading and writing hook files so that a user's file comes back byte for byte: bytes travel as
// latin1 (every byte maps to one char and back; our own text is ASCII), the mode is kept, and
// writes are atomic.
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';

export interface HookFile {
  /** The content, or null when the file does not exist. */
  text: string | null;
  /** The permission bits, or null when the file does not exist. */
  mode: number | null;
}

/** Reads a hook file; refuses a symlink (rewriting it would replace the link by a copy). */
export function readHookFile(path: string, display: string): HookFile {
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
export function writeHookFile(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, Buffer.from(text, 'latin1'));
  chmodSync(path, mode);
}

/** Deletes a hook file (missing is fine). */
export function deleteHookFile(path: string): void {
  rmSync(path, { force: true });
}

/** Whether any execute bit is set. */
export function isExecutable(mode: number | null): boolean {
  return mode !== null && (mode & 0o111) !== 0;
}
