// Started by bin/agent-state.js before the CLI's modules load: for the commands that read the git
// snapshot (verify, fingerprint, boot when it measures drift), git starts working at once and its ~200 ms on a 100k-file tree
// overlap with the ~80 ms of loading commander, yaml and the rest. Imports only small modules.
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

/** Starts the git snapshot early when `argv` runs a command that needs it; never throws. */
export function prefetch(argv: readonly string[]): void {
  let cwd = process.cwd();
  let command: string | undefined;
  for (let i = 0; i < argv.length && command === undefined; i++) {
    const arg = argv[i]!;
    if (arg === '-C' || arg === '--cwd') cwd = resolve(argv[++i] ?? '.');
    else if (arg.startsWith('--cwd=')) cwd = resolve(arg.slice('--cwd='.length));
    else if (!arg.startsWith('-')) command = arg;
  }
  if (command === undefined || !PREFETCHING.has(command)) return;
  if (argv.includes('-h') || argv.includes('--help')) return;
  if (command === 'boot' && bootWithoutDrift(argv)) return;
  try {
    const info = locateRoot(cwd);
    if (info.initialized && info.gitRoot !== null) prefetchGitSnapshot(info.root, info.gitRoot);
  } catch {
    // The command itself reports whatever is wrong.
  }
}
