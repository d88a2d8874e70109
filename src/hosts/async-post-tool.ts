// A host that runs PostToolUse in the background (Claude Code's `async: true`) does not wait for
// it, and `claude -p` kills what is still running when it exits: the last tool call's facts would
// be lost. So a background post-tool call leaves `.agent/log/post-tool/<pid>` while it works, and
// the Stop hook (synchronous, before the host exits) waits for those of live processes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { orElse } from './or-else.js';
import { processAlive } from '../state/lock.js';
import type { StatePaths } from '../state/paths.js';

// The longest a Stop hook waits (its own timeout is 10 s); a post-tool call takes tens of ms.
const WAIT_MS = 3000;

const dirOf = (paths: StatePaths) => join(paths.logDir, 'post-tool');

/** Runs `work` with this process marked as a post-tool call in flight. */
export async function inFlight<T>(paths: StatePaths, work: () => Promise<T>): Promise<T> {
  const mark = join(dirOf(paths), String(process.pid));
  try {
    mkdirSync(dirOf(paths), { recursive: true });
    writeFileSync(mark, '');
  } catch {
    /* no mark: Stop cannot wait for this call, the call itself still runs */
  }
  try {
    return await work();
  } finally {
    orElse(() => rmSync(mark, { force: true }), undefined);
  }
}

/** Waits until no post-tool call of a live process is in flight (at most 3 s). */
export async function settlePostTool(paths: StatePaths): Promise<void> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const names = orElse(() => readdirSync(dirOf(paths)), null);
    if (names === null) return; // none ever ran here
    // A mark a crashed call left behind is not waited for.
    const live = names.filter((name) => processAlive(Number(name)));
    if (live.length === 0 || Date.now() > until) return;
    await new Promise((done) => setTimeout(done, 20));
  }
}
