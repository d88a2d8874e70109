// The git merge driver (I/O): `agent-state merge-driver %O %A %B %P` (.gitattributes, set by `hooks
// install`). It writes the merge into %A and exits 0, or marks the conflicts there and exits 1.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mergeFileInPlace } from '../git/merge-file.js';
import { MAX_STATE_FILE_BYTES } from '../state/read-text.js';
import type { MergeConflict, MergeDecision } from './merge-progress.js';
import { mergeYamlText } from './merge-yaml.js';

/** The files git passes: the common ancestor (%O), ours (%A, also the output), theirs (%B). */
export interface MergeDriverFiles {
  base: string;
  ours: string;
  theirs: string;
  /** The path in the repository (%P), for messages. */
  path?: string;
}

/** What the driver did. */
export interface MergeDriverResult {
  path: string;
  /** `by-id`: the state merge; `lines`: git's line merge (a side was not a YAML mapping). */
  method: 'by-id' | 'lines';
  conflicts: MergeConflict[];
  /** For the line merge: how many conflicts git marked. */
  lineConflicts: number;
  /** A side is over the readers' limit (1 MiB): merged by lines, as no reader would take it. */
  oversized: boolean;
  decisions: MergeDecision[];
}

/** Runs the driver on the files git passed; the merged text (or the marked conflicts) is in `ours`. */
export function runMergeDriver(
  files: MergeDriverFiles,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): MergeDriverResult {
  const path = files.path ?? files.ours;
  const read = (file: string) => readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const sides = [files.base, files.ours, files.theirs];
  const oversized = sides.some((file) => statSync(file).size > MAX_STATE_FILE_BYTES);
  const merged = oversized
    ? null
    : mergeYamlText(read(files.base), read(files.ours), read(files.theirs));
  if (merged === null) {
    const lineConflicts = mergeFileInPlace(files.ours, files.base, files.theirs, {
      cwd: options.cwd ?? process.cwd(),
      env: options.env,
    });
    return { path, method: 'lines', conflicts: [], lineConflicts, decisions: [], oversized };
  }
  writeFileSync(files.ours, merged.text);
  // Readers refuse a state file over 1 MiB: such a merge stops for a person to shorten it.
  const mib = Buffer.byteLength(merged.text) / 1024 / 1024;
  if (mib > 1)
    merged.conflicts.push({
      path: [],
      what: 'the size of the merged file',
      base: undefined,
      ours: `${mib.toFixed(1)} MiB`,
      theirs: 'at most 1 MiB, what every reader accepts',
    });
  const { conflicts, decisions } = merged;
  return { path, method: 'by-id', conflicts, lineConflicts: 0, oversized: false, decisions };
}
