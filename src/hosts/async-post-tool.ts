// A host that runs PostToolUse in the background (`async: true`: Claude Code, Codex) does not wait
// for it, and kills what still runs when the session ends (`claude -p`, `codex exec`): the last
// tool call's facts would be lost. So the Stop hook (synchronous, before the host exits) waits for
// the post-tool calls still to come or in flight:
// - `call-<tool id>`: left by the pre-tool call of a call that will run (the post-tool process may
//   not have started yet when Stop runs), removed by that call's post-tool call;
// - `<pid>`: a post-tool process at work (also for the tools that have no pre-tool hook).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { orElse } from './or-else.js';
import { processAlive } from '../state/lock.js';
import type { StatePaths } from '../state/paths.js';
import type { HostAdapter } from './host-adapter.js';

// The longest a Stop hook waits (its own timeout is 10 s); a post-tool call takes tens of ms.
const WAIT_MS = 3000;

const dirOf = (paths: StatePaths) => join(paths.logDir, 'post-tool');
// A tool id as a file name (hosts send `toolu_…` and `call_…`; anything else is made safe).
const callMark = (paths: StatePaths, id: string) =>
  join(dirOf(paths), `call-${id.replace(/[^\w-]/g, '_').slice(0, 120)}`);

/** Whether `host` runs its post-tool hooks in the background. */
export const postToolInBackground = (host: HostAdapter): boolean =>
  Object.values(host.events).some((e) => e.kind === 'post-tool' && e.extra?.async === true);

function mark(file: string): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '');
  } catch {
    /* no mark: Stop cannot wait for this call, the call itself still runs */
  }
}

/** Notes, before a tool call runs, that its post-tool call is to come. */
export const expectPostTool = (paths: StatePaths, id: string): void => mark(callMark(paths, id));

/** Runs `work` with this process marked as the post-tool call of tool `id` in flight. */
export async function inFlight<T>(
  paths: StatePaths,
  work: () => Promise<T>,
  id?: string,
): Promise<T> {
  const own = join(dirOf(paths), String(process.pid));
  mark(own);
  try {
    return await work();
  } finally {
    for (const file of id === undefined ? [own] : [own, callMark(paths, id)])
      orElse(() => rmSync(file, { force: true }), undefined);
  }
}

/**
 * Waits until no post-tool call is to come or in flight (at most 3 s). A `call-` mark still there
 * then belongs to a call whose post-tool never ran (a patch the host refused): it is removed.
 */
export async function settlePostTool(paths: StatePaths): Promise<void> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const names = orElse(() => readdirSync(dirOf(paths)), [] as string[]);
    const calls = names.filter((name) => name.startsWith('call-'));
    // A mark a crashed process left behind is not waited for.
    const live = names.filter((name) => /^\d+$/.test(name) && processAlive(Number(name)));
    if (calls.length + live.length === 0) return;
    if (Date.now() > until) {
      for (const name of calls)
        orElse(() => rmSync(join(dirOf(paths), name), { force: true }), undefined);
      return;
    }
    await new Promise((done) => setTimeout(done, 20));
  }
}
