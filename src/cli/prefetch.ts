// Started by bin/agent-state.js before the CLI's modules load: for the commands that read the git
// snapshot (verify, fingerprint, boot — which judges the drift at every level), git starts working
// at once and its ~200 ms on a 100k-file tree overlap with the ~80 ms of loading commander, yaml
// and the rest. Imports only small modules.
import { resolve } from 'node:path';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { locateRoot } from '../state/find-root.js';

const PREFETCHING = new Set(['verify', 'fingerprint', 'boot']);

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
  try {
    const info = locateRoot(cwd);
    if (info.initialized && info.gitRoot !== null) prefetchGitSnapshot(info.root, info.gitRoot);
  } catch {
    // The command itself reports whatever is wrong.
  }
}
