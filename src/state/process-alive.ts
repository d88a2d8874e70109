// Whether a process of this host is still running: the stale-lock takeover and the sweep of
// dead writers' temp files ask it.

/** True when `pid` exists (signal 0 tests for existence; EPERM: it exists under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
