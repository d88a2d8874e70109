// Running the configured test command for a checkpoint: in its own process group (so a timeout
// or Ctrl-C kills the whole tree, and a watchdog ends it if the checkpoint itself is killed),
// output streamed through the redactor to .agent/artifacts/, counts read from the runner's summary.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from '../text/lazy-crypto.js';
import { CancelledError } from '../errors.js';
import { ArtifactWriter, artifactName } from '../evidence/artifacts.js';
import type { EvidenceRef } from '../evidence/evidence-file.js';
import type { StatePaths } from '../state/paths.js';
import { parseTestCounts, type TestCounts } from './parse-test-counts.js';

/** The outcome of one test run. */
export interface TestRun {
  command: string;
  /** Null when the command was killed by a signal. */
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  /** True when the command exited 0 in time. */
  ok: boolean;
  passed: number | null;
  failed: number | null;
  /** The runner whose summary gave the counts; null when none was recognized. */
  runner: TestCounts['runner'] | null;
  duration_ms: number;
  /** The (redacted) log under .agent/artifacts/. */
  log: EvidenceRef;
  /** Secrets redacted from the log. */
  redactions: number;
  /** The last lines of the log, for a report. */
  tail: string;
}

export interface RunTestsOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

// After SIGTERM, a test tree gets this long to exit before SIGKILL.
const KILL_GRACE_MS = 3_000;
// After the shell exits, descendants still holding its output pipes get this long.
const DRAIN_MS = 2_000;
const TAIL_LINES = 30;

// A negative pid signals the whole process group the detached child leads.
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

// A checkpoint killed with SIGKILL cannot stop its test group, and a quiet test then ran for its
// whole timeout. The watchdog is a tiny shell reading a pipe only the checkpoint writes: when the
// checkpoint dies the kernel closes it, `read` returns, and the watchdog ends the group (TERM, then
// KILL). The test never inherits the pipe (Node opens descriptors close-on-exec).
// `$1` is the process group; after TERM the tree gets two seconds, like a timeout's grace.
// (`kill -TERM -PGID`, without `--`: dash's kill refuses `--`.)
const SCRIPT = 'read _ignored; kill -TERM "-$1" 2>/dev/null; sleep 2; kill -KILL "-$1" 2>/dev/null';

/**
 * Watches process group `pgid` on behalf of this process: if this process dies before
 * `release()`, the group is terminated. A no-op on Windows (no process groups there) or when no
 * shell can be started.
 */
export function watchGroup(pgid: number): { release(): void } {
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

/** Runs `command` with a shell in `paths.root`; resolves when it ends, rejects with CancelledError on abort. */
export function runTests(
  paths: StatePaths,
  command: string,
  options: RunTestsOptions,
): Promise<TestRun> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const name = artifactName(now(), 'test.log', randomBytes(3).toString('hex'));
  const writer = new ArtifactWriter(paths, name);
  return new Promise<TestRun>((resolve, reject) => {
    if (options.signal?.aborted) {
      writer.discard();
      reject(new CancelledError('cancelled before the tests started: nothing was written'));
      return;
    }
    const child = spawn(command, {
      cwd: paths.root,
      env: options.env ?? process.env,
      shell: true,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    // If this process is killed outright, the watchdog ends the test group.
    const watchdog = child.pid === undefined ? null : watchGroup(child.pid);
    let [timedOut, cancelled, settled] = [false, false, false];
    const timers: NodeJS.Timeout[] = [];
    const stop = () => {
      killTree(child, 'SIGTERM');
      timers.push(setTimeout(() => killTree(child, 'SIGKILL'), KILL_GRACE_MS).unref());
    };
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const onTimeout = () => {
      timedOut = true;
      stop();
    };
    timers.push(setTimeout(onTimeout, options.timeoutMs));
    for (const out of [child.stdout!, child.stderr!])
      out.on('data', (chunk: Buffer) => writer.write(chunk));
    // A background process that inherited the pipes must not keep the checkpoint waiting.
    child.on('exit', () => {
      timers.push(
        setTimeout(() => {
          killTree(child, 'SIGKILL');
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, DRAIN_MS).unref(),
      );
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (settled) return;
      settled = true;
      watchdog?.release();
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (cancelled) {
        writer.discard();
        const stopped = 'cancelled: the test command was stopped and nothing was written';
        reject(new CancelledError(stopped));
        return;
      }
      const note = error && `\n[agent-state] could not start the test command: ${error.message}\n`;
      if (note) writer.write(Buffer.from(note));
      const tail = writer.tail();
      const artifact = writer.finish();
      const counts = parseTestCounts(tail);
      const exitCode = error ? 127 : code;
      resolve({
        command,
        exit_code: exitCode,
        signal: signal ?? null,
        timed_out: timedOut,
        ok: exitCode === 0 && !timedOut,
        passed: counts?.passed ?? null,
        failed: counts?.failed ?? null,
        runner: counts?.runner ?? null,
        duration_ms: Date.now() - started,
        log: artifact.ref,
        redactions: artifact.redactions,
        tail: tail.replace(/\s+$/, '').split('\n').slice(-TAIL_LINES).join('\n'),
      });
    };
    child.on('error', (error) => finish(null, null, error));
    child.on('close', (code, signal) => finish(code, signal));
  });
}
