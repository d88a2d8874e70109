// A tool call that leaves the event log locked for 1.5 s after it ends: the post-tool hook of that
// call is then still waiting for the lock when the model has answered and the session ends.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, type HostRepo } from './host-repo.js';

/** Writes the lock holder into `repo`; returns the shell command that starts it in the background. */
export function holdLogLock(repo: HostRepo): string {
  const lockModule = pathToFileURL(join(REPO_ROOT, 'dist/state/lock.js')).href;
  repo.write(
    'hold-lock.mjs',
    `const { acquireLock } = await import(${JSON.stringify(lockModule)});\n` +
      `const lock = await acquireLock('.agent/log/events.lock');\n` +
      `setTimeout(() => lock.release(), 1500);\n`,
  );
  return 'node hold-lock.mjs >/dev/null 2>&1 & sleep 0.3';
}
