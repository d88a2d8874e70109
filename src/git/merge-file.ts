// `git merge-file`: git's own line merge of three files, for the merge driver's fallback (a side
// that is not a YAML mapping is merged line by line, as git would without the driver).
import { runGit } from './exec-git.js';

// -L names the three sides in the conflict markers, as git merge does.
const MERGE_FILE = ['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs'];

/** Merges `base` → `other` into `current` in place; returns the number of conflicts (0: clean). */
export function mergeFileInPlace(
  current: string,
  base: string,
  other: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): number {
  const result = runGit([...MERGE_FILE, '--', current, base, other], {
    cwd: options.cwd,
    env: options.env,
    allowFailure: true,
  });
  // The exit status is the number of conflicts (capped at 127); a negative one is an error.
  if (result.status === null || result.status > 127)
    throw new Error(`git merge-file failed: ${result.stderr.trim() || `exit ${result.status}`}`);
  return result.status;
}
