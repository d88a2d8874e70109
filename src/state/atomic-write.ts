// Crash-safe file replacement: a crash at any instant leaves the old or the new content, never
// a mix (temp file in the same directory → fsync → rename → fsync the directory).
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { orElse } from './or-else.js';

// Random suffixes for temp-file names and lock tokens. They must be unique, not secret, so
// Math.random is enough: loading node:crypto costs ~6 ms, paid by every hook that runs `event`.
let counter = 0;

/** 8 random hex digits, plus a per-process counter so that two calls never repeat. */
export function uniqueSuffix(): string {
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
  return `${random}${(counter++).toString(16)}`;
}

/** Suffix of every temp file the store creates; `.agent/.gitignore` ignores it. */
export const TEMP_SUFFIX = '.tmp';

/** The temp path for `path`: hidden, unique per writer, in the same directory (same filesystem). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${uniqueSuffix()}${TEMP_SUFFIX}`);
}

/** Writes `data` to `path` atomically and durably. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = tempPathFor(path);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(path));
}

/** Replaces a cache file by rename, without fsync: a lost cache is rebuilt, an fsync costs ms. */
export function replaceFile(path: string, data: string): void {
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode: 0o644 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A JSON cache in .agent/log/: `read` undefined when missing or damaged; `write` never throws. */
export function logCache(logDir: string, name: string) {
  const file = join(logDir, name);
  return {
    file,
    read: (): unknown => orElse(() => JSON.parse(readFileSync(file, 'utf8')) as unknown, undefined),
    write(text: string | null): void {
      try {
        if (text === null) return rmSync(file, { force: true });
        mkdirSync(logDir, { recursive: true });
        replaceFile(file, text);
      } catch {
        /* only slower */
      }
    },
  };
}

/** Makes a rename durable. Some platforms (Windows) cannot open a directory: that is fine there. */
export function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* not supported on this platform */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
