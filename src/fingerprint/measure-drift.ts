// Drift with what only git and the disk can tell (I/O): the commits since the recorded HEAD and
// the current content of files that were dirty at the checkpoint and are clean now.
import { readHistory, type History } from '../git/history.js';
import type { Fingerprint, FileState } from '../types.js';
import { diffFingerprint, type Drift } from './diff.js';
import { hasherAt, type FileHasher } from './hash-file.js';

export interface MeasureDriftOptions {
  env?: NodeJS.ProcessEnv;
  /** Files larger than this are compared by size and mtime (config fingerprint.max_hash_bytes). */
  maxHashBytes?: number;
  /** How a file is hashed; hashFile by default. */
  hash?: FileHasher;
}

async function historyFor(
  root: string,
  recorded: Fingerprint,
  current: Fingerprint,
  env: NodeJS.ProcessEnv | undefined,
): Promise<History | null | undefined> {
  const from = recorded.git?.head ?? null;
  const to = current.git?.head ?? null;
  if (recorded.git === null || current.git === null || from === to || to === null) return undefined;
  return readHistory(root, from, to, env);
}

/** Compares a recorded fingerprint with a current one of the same root, asking git about the commits in between. */
export async function measureDrift(
  root: string,
  recorded: Fingerprint,
  current: Fingerprint,
  options: MeasureDriftOptions = {},
): Promise<Drift> {
  const history = await historyFor(root, recorded, current, options.env);
  const worktree: Record<string, FileState | null> = {};
  const now = { ...current.dirty, ...current.untracked };
  const hash = options.hash ?? hasherAt(root);
  for (const path of Object.keys({ ...recorded.dirty, ...recorded.untracked }))
    if (!(path in now)) worktree[path] = hash(path, options.maxHashBytes);
  return diffFingerprint(recorded, current, { history, worktree });
}
