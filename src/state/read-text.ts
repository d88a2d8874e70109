// Reading a state file as text, refusing what no parser should see: a huge file, an empty file
// where content is required, binary bytes, or invalid UTF-8; and any file in chunks, with bounded
// memory for large ones (hashing, redacting raw output) and without streams' cost for small ones.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { InvalidStateError } from '../errors.js';

/** State files are small by design; anything bigger is a mistake or an accident. */
export const MAX_STATE_FILE_BYTES = 1024 * 1024;

export interface ReadTextOptions {
  /** The name to show in messages (repository-relative). */
  display: string;
  /** Whether an empty file is acceptable. */
  allowEmpty?: boolean;
  /** How to restore the file, for the hint. */
  restoreHint: string;
  /** The size limit (default MAX_STATE_FILE_BYTES). */
  maxBytes?: number;
}

// The 1-based line of a byte offset.
function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Reads a state file as UTF-8 text, or throws InvalidStateError naming file:line. */
export function readStateText(path: string, options: ReadTextOptions): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    // A directory in the file's place is a broken state, not a crash of ours.
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
    throw new InvalidStateError('a directory stands where the file should be', {
      location: { file: options.display },
      hint: `remove the directory, then ${options.restoreHint}`,
    });
  }
  return decodeStateText(bytes, options);
}

/** Decodes state file bytes (see readStateText); exported for in-memory callers and tests. */
export function decodeStateText(bytes: Uint8Array, options: ReadTextOptions): string {
  const { display, restoreHint } = options;
  const max = options.maxBytes ?? MAX_STATE_FILE_BYTES;
  if (bytes.length > max) {
    const mb = (bytes.length / (1024 * 1024)).toFixed(1);
    throw new InvalidStateError(`the file is ${mb} MiB, over the ${max / 1024 / 1024} MiB limit`, {
      location: { file: display },
      hint: `${restoreHint}; keep bulky output in evidence or .agent/artifacts/`,
    });
  }
  if (bytes.length === 0 || /^\s*$/.test(Buffer.from(bytes).toString('latin1'))) {
    if (options.allowEmpty) return '';
    throw new InvalidStateError('the file is empty', {
      location: { file: display, line: 1 },
      hint: restoreHint,
    });
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new InvalidStateError(`not a text file (NUL byte at offset ${nul})`, {
      location: { file: display, line: lineOfOffset(bytes, nul) },
      hint: restoreHint,
    });
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new InvalidStateError(`not valid UTF-8 (bad byte at offset ${offset})`, {
      location: { file: display, line: lineOfOffset(bytes, offset) },
      hint: restoreHint,
    });
  }
}

// Where decoding fails, for the message; a plain scan of lead and continuation bytes.
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b < 0xc2 ? 0 : b <= 0xdf ? 2 : b <= 0xef ? 3 : b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return 0;
}

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
