// Raw outputs kept in .agent/artifacts/ (git-ignored, local): copied through the redactor, so
// a secret in a log never reaches the disk, and referenced from evidence by sha256.
import { createHash } from '../text/lazy-crypto.js';
import {
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { tempPathFor } from '../state/atomic-write.js';
import { displayPath, type StatePaths } from '../state/paths.js';
import { readChunks } from '../state/read-text.js';
import type { EvidenceRef } from './evidence-file.js';
import { createRedactor, type Redactor } from '../text/redact.js';

/** A redacted artifact written to disk. */
export interface WrittenArtifact {
  ref: EvidenceRef;
  /** Absolute path. */
  path: string;
  redactions: number;
}

/** A file name for a new artifact: a UTC timestamp, a random tag and the source's name. */
export function artifactName(now: Date, name: string, tag: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '');
  const safe = basename(name).replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${stamp.replace(/\.\d+Z$/, 'Z')}-${tag}-${safe.slice(0, 60) || 'output'}`;
}

const TAIL_CHARS = 64 * 1024;

/** Writes redacted text chunks to an artifact, hashing what is written. */
export class ArtifactWriter {
  readonly path: string;
  private readonly temp: string;
  private fd: number | undefined;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly redactor: Redactor = createRedactor();
  private tailText = '';

  /** `mode`: the artifact's permissions (a copy keeps its source's: a private log stays private). */
  constructor(
    private readonly paths: StatePaths,
    name: string,
    mode = 0o644,
  ) {
    mkdirSync(paths.artifactsDir, { recursive: true });
    this.path = join(paths.artifactsDir, name);
    this.temp = tempPathFor(this.path);
    this.fd = openSync(this.temp, 'wx', mode);
    // Exactly `mode`, whatever the umask.
    fchmodSync(this.fd, mode);
  }

  // Bytes go through the redactor as latin1, which maps every byte to one character and back:
  // non-ASCII content survives untouched while the (ASCII) secret patterns still match.
  write(chunk: Uint8Array): void {
    this.emit(this.redactor.push(Buffer.from(chunk).toString('latin1')));
  }

  private emit(text: string): void {
    if (text === '' || this.fd === undefined) return;
    const out = Buffer.from(text, 'latin1');
    this.tailText = (this.tailText + text).slice(-TAIL_CHARS);
    this.hash.update(out);
    this.bytes += out.length;
    let offset = 0;
    while (offset < out.length) offset += writeSync(this.fd, out, offset, out.length - offset);
  }

  /** The last 64 KiB written (redacted), decoded as UTF-8: enough to read a test summary. */
  tail(): string {
    return Buffer.from(this.tailText, 'latin1').toString('utf8');
  }

  /** Flushes, moves the file into place and returns its reference. */
  finish(): WrittenArtifact {
    this.emit(this.redactor.end());
    closeSync(this.fd!);
    this.fd = undefined;
    renameSync(this.temp, this.path);
    return {
      path: this.path,
      ref: {
        path: displayPath(this.paths, this.path),
        sha256: `sha256:${this.hash.digest('hex')}`,
        bytes: this.bytes,
      },
      redactions: this.redactor.count,
    };
  }

  /** Removes what was written (cancel). */
  discard(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
    rmSync(this.path, { force: true });
  }
}

/** Copies the file at `source` into .agent/artifacts/ through the redactor, keeping its mode. */
export function copyArtifact(paths: StatePaths, source: string, name: string): WrittenArtifact {
  const writer = new ArtifactWriter(paths, name, statSync(source).mode & 0o777);
  try {
    readChunks(source, (chunk) => writer.write(chunk));
    return writer.finish();
  } catch (error) {
    writer.discard();
    throw error;
  }
}
