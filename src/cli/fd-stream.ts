// stdout and stderr as plain descriptors: process.stdout on a pipe (every hook call) makes a
// net.Socket for a few whole writes, which Node makes synchronously on pipes anyway.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Tty from 'node:tty';

/** A stream a call writes to: the process's, or a test's capture. */
export interface OutStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

// Only a character device asks node:tty (which loads net); /dev/null (`stdio: 'ignore'`) is one.
/** Whether `fd` is a terminal. */
export function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    if (stat.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  } catch {
    return false;
  }
  const { isatty } = createRequire(import.meta.url)('node:tty') as typeof Tty;
  return isatty(fd);
}

// A full non-blocking pipe (EAGAIN) is waited out; a gone reader (EPIPE: `| head`) drops the rest.
/** Writes to descriptor `fd` whole and in order. */
export function fdStream(fd: 1 | 2): OutStream {
  let tty: boolean | undefined;
  let closed = false;
  return {
    get isTTY() {
      return (tty ??= isTerminal(fd));
    },
    write(text: string) {
      const bytes = Buffer.from(text, 'utf8');
      for (let done = 0; done < bytes.length && !closed;) {
        try {
          done += writeSync(fd, bytes, done);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') closed = true;
          else if (code !== 'EAGAIN') throw error;
        }
      }
      return true;
    },
  };
}
