// For the commands that read the git snapshot (verify, fingerprint, boot when it measures drift),
// git starts working as soon as the route is known, so its ~200 ms on a 100k-file tree overlap
// with loading the rest of the command. Imports only small modules.
import { resolve } from 'node:path';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { locateRoot } from '../state/find-root.js';

const PREFETCHING = new Set(['verify', 'fingerprint', 'boot']);

// `boot --level 1` and `--level 2` measure no drift, so they need no git.
function bootWithoutDrift(argv: readonly string[]): boolean {
  const at = argv.findIndex((a) => a === '--level' || a.startsWith('--level='));
  const level =
    at === -1 ? undefined : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  return level === '1' || level === '2';
}

/** Starts the git snapshot early when `command` needs it; never throws. */
export function prefetch(
  command: string | undefined,
  cwd: string | undefined,
  argv: readonly string[],
): void {
  if (command === undefined || !PREFETCHING.has(command)) return;
  if (command === 'boot' && bootWithoutDrift(argv)) return;
  try {
    const info = locateRoot(resolve(cwd ?? '.'));
    if (info.initialized && info.gitRoot !== null) prefetchGitSnapshot(info.root, info.gitRoot);
  } catch {
    // The command itself reports whatever is wrong.
  }
}
