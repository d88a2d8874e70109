// Reading a file in fixed-size chunks with sync I/O: bounded memory for large files (hashing,
// copying raw output through the redactor) without the overhead of streams for small ones.
import { closeSync, openSync, readSync } from 'node:fs';

/** Default chunk size: 1 MiB. */
export const CHUNK_BYTES = 1024 * 1024;

/** Calls `onChunk` with each successive chunk of the file at `path` (the buffer is reused). */
export function readChunks(
  path: string,
  onChunk: (chunk: Buffer) => void,
  chunkBytes = CHUNK_BYTES,
): void {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      onChunk(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
}
