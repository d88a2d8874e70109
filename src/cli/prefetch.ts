// For the commands of the whole CLI that read the git snapshot (verify, fingerprint), git starts
// once the route is known: its ~200 ms on a 100k-file tree overlap loading the CLI. A boot, from a
// bundle of its own with little to overlap, waits for git instead (readGitSnapshot). Small
// imports only.
import { resolve } from 'node:path';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { locateRoot } from '../state/find-root.js';
import { COMMANDS, commandWord } from './command-list.js';
import type { CliIo } from './output.js';

/** Starts the git snapshot early when `command` needs it; never throws. */
export function prefetch(command: string | undefined, cwd: string | undefined, io: CliIo): void {
  const word = commandWord(command);
  if (word === undefined || !('prefetch' in COMMANDS[word])) return;
  try {
    const info = locateRoot(resolve(io.cwd ?? '.', cwd ?? '.'));
    if (info.initialized && info.gitRoot !== null)
      prefetchGitSnapshot(info.root, info.gitRoot, io.env);
  } catch {
    // The command itself reports whatever is wrong.
  }
}
