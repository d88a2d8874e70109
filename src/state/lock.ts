// The cross-process state lock: an O_EXCL file with the owner's pid and time; a dead owner's (same
// host) or one older than `staleMs` is taken over. With a queue directory it is fair: waiters take
// tickets named by arrival, try only when theirs is oldest, and give up (BusyError, exit 4) only
// when the queue did not move for `timeoutMs`. Without one: jittered backoff up to `timeoutMs`.
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BusyError } from '../errors.js';
import { uniqueSuffix } from './atomic-write.js';
import { listDir } from './find-root.js';
import { orElse } from './or-else.js';

export interface LockOptions {
  /**
   * Give up after this long (with a queue: this long without the queue moving). Default 10 s
   * (env AGENT_STATE_LOCK_TIMEOUT_MS overrides).
   */
  timeoutMs?: number;
  /** A directory where waiters take tickets and are served in arrival order (see the file comment). */
  queueDir?: string;
  /** A lock held longer than this is presumed abandoned. Default 60 s. */
  staleMs?: number;
  /** For messages: the lock's path relative to the root. */
  display?: string;
  now?: () => Date;
}

interface LockOwner {
  pid: number;
  host: string;
  at: string;
  token: string;
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

// A lock without readable content is being written this very moment, unless its creator died
// between create and write: give it a few seconds.
const UNREADABLE_STALE_MS = 5_000;

function isStale(path: string, owner: LockOwner | null, staleMs: number, now: Date): boolean {
  if (!owner)
    return orElse(() => now.getTime() - statSync(path).mtimeMs > UNREADABLE_STALE_MS, false);
  if (owner.host === hostname() && !processAlive(owner.pid)) return true;
  return now.getTime() - Date.parse(owner.at) > staleMs;
}

/** True when `pid` exists (signal 0 tests for existence; EPERM: it exists under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Moves a stale lock aside, then checks that what moved is the lock judged stale: if another
// process took it over in between, its fresh lock is put back (link fails if a third one won).
function breakStaleLock(path: string, judged: LockOwner | null): void {
  const aside = `${path}.${process.pid}.${uniqueSuffix()}.stale.tmp`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readOwner(aside);
  if ((moved?.token ?? null) !== (judged?.token ?? null)) {
    try {
      linkSync(aside, path);
    } catch {
      /* someone else holds it now; the moved owner will notice at release */
    }
  }
  rmSync(aside, { force: true });
}

/** A held lock; release it exactly once. */
export interface Lock {
  release(): void;
}

/** Acquires the lock at `path`: in arrival order with `queueDir`, else with jittered backoff. */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<Lock> {
  const now = options.now ?? (() => new Date());
  const envTimeout = Number(process.env.AGENT_STATE_LOCK_TIMEOUT_MS);
  const timeoutMs =
    options.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : 10_000);
  const staleMs = options.staleMs ?? 60_000;
  const display = options.display ?? path;
  const token = `${process.pid.toString(16)}.${uniqueSuffix()}${uniqueSuffix()}`;
  // The owner seen by the last failed try (null: none readable).
  let holder: LockOwner | null = null;
  // Creates the lock file, or takes over a stale one.
  const tryTake = (): boolean => {
    const owner: LockOwner = { pid: process.pid, host: hostname(), at: now().toISOString(), token };
    try {
      writeFileSync(path, JSON.stringify(owner), { flag: 'wx', mode: 0o644 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    holder = readOwner(path);
    if (!isStale(path, holder, staleMs, now())) return false;
    breakStaleLock(path, holder);
    return tryTake();
  };
  // Released only if it is still ours (a takeover may have replaced it).
  const lock: Lock = {
    release() {
      if (readOwner(path)?.token === token) rmSync(path, { force: true });
    },
  };
  if (options.queueDir !== undefined) {
    // Nobody waiting: try at once (the usual case costs one readdir).
    if (liveTickets(options.queueDir).length > 0 || !tryTake())
      await queued(options.queueDir, tryTake, () => holder, timeoutMs, display);
    return lock;
  }
  const started = Date.now();
  for (let delay = 2; !tryTake(); delay = Math.min(delay * 2, 50)) {
    if (Date.now() - started >= timeoutMs) throw busy(holder, display);
    await sleep(delay + Math.random() * delay);
  }
  return lock;
}

function busy(
  holder: LockOwner | null,
  display: string,
  queue?: { waiting: number; ms: number },
): BusyError {
  const who = holder
    ? `pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} since ${holder.at}`
    : 'another process';
  const stuck = queue
    ? `; it did not change hands for ${queue.ms / 1000} s (${queue.waiting} waiting)`
    : '';
  return new BusyError(`state is busy: ${display} is held by ${who}${stuck}`, {
    hint: 'wait for that command to finish and retry; if no agent-state process is running, delete the lock file',
  });
}

// A ticket's name sorts by arrival: the time in ms (zero-padded), then pid and a random tag.
const TICKET = /^(\d{15})-(\d+)-[0-9a-f]+\.ticket$/;
// Waiters touch their ticket this often; one untouched for TICKET_STALE_MS is abandoned (its
// process on another host died; a dead process on this host is seen at once).
const TICKET_TOUCH_MS = 1_000;
const TICKET_STALE_MS = 15_000;

// The tickets of live waiters, oldest first; abandoned ones are removed on the way.
function liveTickets(dir: string): string[] {
  const live: string[] = [];
  for (const name of listDir(dir).sort()) {
    const match = TICKET.exec(name);
    if (!match) continue;
    if (ticketAbandoned(join(dir, name), Number(match[2])))
      rmSync(join(dir, name), { force: true });
    else live.push(name);
  }
  return live;
}

function ticketAbandoned(file: string, pid: number): boolean {
  try {
    if (!processAlive(pid)) {
      const host = (JSON.parse(readFileSync(file, 'utf8')) as { host?: unknown }).host;
      if (host === hostname()) return true;
    }
    return Date.now() - statSync(file).mtimeMs > TICKET_STALE_MS;
  } catch {
    // Gone, or being written this instant: not ours to remove.
    return false;
  }
}

// Waits with a ticket in `dir` until this process's turn comes and `tryTake` takes the lock.
async function queued(
  dir: string,
  tryTake: () => boolean,
  holderOf: () => LockOwner | null,
  timeoutMs: number,
  display: string,
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const ticket = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${uniqueSuffix()}.ticket`;
  const file = join(dir, ticket);
  const content = JSON.stringify({ pid: process.pid, host: hostname() });
  writeFileSync(file, content, { flag: 'wx', mode: 0o644 });
  try {
    let progress = Date.now();
    let touched = Date.now();
    let seen: { ahead: number; holder: string | null } | null = null;
    let delay = 1;
    for (;;) {
      const tickets = liveTickets(dir);
      const ahead = tickets.indexOf(ticket);
      // A ticket removed by mistake (a clock jump made it look abandoned) is taken again.
      if (ahead === -1) {
        writeFileSync(file, content, { mode: 0o644 });
        continue;
      }
      if (ahead === 0 && tryTake()) return;
      const holder = holderOf()?.token ?? null;
      if (seen === null || ahead < seen.ahead || holder !== seen.holder) {
        progress = Date.now();
        seen = { ahead, holder };
      } else if (Date.now() - progress >= timeoutMs) {
        throw busy(holderOf(), display, { waiting: tickets.length, ms: timeoutMs });
      }
      if (Date.now() - touched >= TICKET_TOUCH_MS) {
        const at = new Date();
        utimesSync(file, at, at);
        touched = Date.now();
      }
      // The next in line watches closely; the others only need to notice their turn coming.
      const wait = ahead === 0 ? Math.min(delay, 8) : Math.min(5 * ahead, 50);
      delay = ahead === 0 ? delay * 2 : 1;
      await sleep(wait);
    }
  } finally {
    rmSync(file, { force: true });
  }
}
