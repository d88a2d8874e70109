// Best-effort reads of host files: a failure is an answer, the fallback, never an error.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { orElse } from '../state/or-else.js';

export { orElse };

/**
 * Up to `max` bytes of the file at `path` from byte `from(size)`: the text, where it starts and
 * the file's size; null when it cannot be opened.
 */
export function readSpan(path: string, from: (size: number) => number, max: number) {
  const fd = orElse(() => openSync(path, 'r'), null);
  if (fd === null) return null;
  try {
    const size = fstatSync(fd).size;
    const start = from(size);
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(size - start, max)));
    let read = 0;
    for (let n = 1; read < buffer.length && n > 0; read += n)
      n = readSync(fd, buffer, read, buffer.length - read, start + read);
    return { text: buffer.toString('utf8', 0, read), start, size };
  } finally {
    closeSync(fd);
  }
}
