// Replacing a derived cache file (status snapshot, publish cursor, settings): temp file + rename,
// so readers never see half a file, but without fsync — a cache lost in a crash is rebuilt from
// the log, and an fsync would cost milliseconds on every `status`.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { tempPathFor } from '../state/atomic-write.js';

/** Writes `data` to `path` by rename (atomic for readers, not durable). */
export function replaceFile(path: string, data: string): void {
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode: 0o644 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
