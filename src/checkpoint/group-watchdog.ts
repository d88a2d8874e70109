// A checkpoint killed with SIGKILL cannot stop its test group, and a quiet test then ran for its
// whole timeout. The watchdog is a tiny shell reading a pipe only the checkpoint writes: when the
// checkpoint dies the kernel closes it, `read` returns, and the watchdog ends the group (TERM, then
// KILL). The test never inherits the pipe (Node opens descriptors close-on-exec).
import { spawn } from 'node:child_process';

// `$1` is the process group; after TERM the tree gets two seconds, like a timeout's grace.
// (`kill -TERM -PGID`, without `--`: dash's kill refuses `--`.)
const SCRIPT = 'read _ignored; kill -TERM "-$1" 2>/dev/null; sleep 2; kill -KILL "-$1" 2>/dev/null';

/** Stops watching: the group ended normally (or was stopped by the caller). */
export interface GroupWatchdog {
  release(): void;
}

/**
 * Watches process group `pgid` on behalf of this process: if this process dies before
 * `release()`, the group is terminated. A no-op on Windows (no process groups there) or when no
 * shell can be started.
 */
export function watchGroup(pgid: number): GroupWatchdog {
  if (process.platform === 'win32') return { release() {} };
  let watchdog;
  try {
    watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'agent-state-watchdog', String(pgid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own group: Ctrl-C on the terminal must not end it before it has done its job.
      detached: true,
    });
  } catch {
    return { release() {} };
  }
  watchdog.on('error', () => {});
  watchdog.stdin.on('error', () => {});
  // Neither the watchdog nor its pipe keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  return {
    release() {
      // Killed first, so that closing the pipe cannot make it signal a reused group id.
      watchdog.kill('SIGKILL');
      watchdog.stdin.destroy();
    },
  };
}
