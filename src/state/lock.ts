// An exclusive cross-process lock on the state: a lock file created with O_EXCL holding the
// owner's pid and start time. A lock whose owner is dead (same host) or that is older than
// `staleMs` is taken over; after `timeoutMs` the caller gets a BusyError (exit 4).
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { BusyError } from '../errors.js';
import { processAlive } from './process-alive.js';
import { uniqueSuffix } from './unique-suffix.js';

export interface LockOptions {
  /** Give up after this long. Default 10 s (env AGENT_STATE_LOCK_TIMEOUT_MS overrides). */
  timeoutMs?: number;
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
  if (!owner) {
    try {
      return now.getTime() - statSync(path).mtimeMs > UNREADABLE_STALE_MS;
    } catch {
      return false;
    }
  }
  if (owner.host === hostname() && !processAlive(owner.pid)) return true;
  return now.getTime() - Date.parse(owner.at) > staleMs;
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

/** Acquires the lock at `path`, waiting with jittered backoff. */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<Lock> {
  const now = options.now ?? (() => new Date());
  const envTimeout = Number(process.env.AGENT_STATE_LOCK_TIMEOUT_MS);
  const timeoutMs =
    options.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : 10_000);
  const staleMs = options.staleMs ?? 60_000;
  const token = `${process.pid.toString(16)}.${uniqueSuffix()}${uniqueSuffix()}`;
  const started = Date.now();
  let delay = 2;
  for (;;) {
    const owner: LockOwner = { pid: process.pid, host: hostname(), at: now().toISOString(), token };
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(owner));
      } finally {
        closeSync(fd);
      }
      return { release: () => releaseLock(path, token) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readOwner(path);
    if (isStale(path, holder, staleMs, now())) {
      breakStaleLock(path, holder);
      continue;
    }
    if (Date.now() - started >= timeoutMs) {
      const who = holder
        ? `pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} since ${holder.at}`
        : 'another process';
      throw new BusyError(`state is busy: ${options.display ?? path} is held by ${who}`, {
        hint: 'wait for that command to finish and retry; if no agent-state process is running, delete the lock file',
      });
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}

// Removes the lock only if it is still ours (a takeover may have replaced it).
function releaseLock(path: string, token: string): void {
  const owner = readOwner(path);
  if (owner?.token === token) rmSync(path, { force: true });
}
