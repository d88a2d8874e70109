// `evidence add`: one capped, redacted summary of an operation, written under the lock together
// with the pruning that keeps only the newest `evidence.keep` entries.
import { randomBytes } from '../text/lazy-crypto.js';
import { existsSync, rmSync, statSync } from 'node:fs';
import { resolveAgent } from '../state/agent-name.js';
import { UsageError } from '../errors.js';
import { valueOrThrow } from '../state/parsed-file.js';
import type { StatePaths } from '../state/paths.js';
import { readConfig, withStateLock } from '../state/store.js';
import { findRoot } from '../state/find-root.js';
import { requireInsideRepo } from '../state/repo-path.js';
import type { BaseOptions, Config } from '../types.js';
import { artifactName, copyArtifact, type WrittenArtifact } from './artifacts.js';
import { truncateUtf8, type EvidenceMeta, type EvidenceRef } from './evidence-file.js';
import { pruneEvidenceLocked, writeEntryLocked } from './evidence-folder.js';
import { redactSecrets } from '../text/redact.js';

const KIND = /^[a-z][a-z0-9_-]{0,31}$/;
const SUMMARY_MAX_CHARS = 500;

export interface EvidenceInput {
  /** What sort of operation: test, checkpoint, decision, diff, note, ... */
  kind: string;
  /** One line a restarted agent reads first. */
  summary: string;
  /** The Markdown body (capped at evidence.max_bytes). */
  body?: string;
  /** A file of raw output to copy into .agent/artifacts/ (redacted) and reference. */
  rawFile?: string;
  /** Read `rawFile` even when it is outside the repository (default: refused). */
  allowOutside?: boolean;
  /** Artifacts already written (redacted) under .agent/artifacts/, referenced as they are. */
  refs?: EvidenceRef[];
  /** Secrets already redacted from those artifacts, counted into the entry. */
  redactionsInRefs?: number;
}

/** An entry ready to be written: redacted, capped, its raw output already copied. */
export interface PreparedEvidence {
  meta: Omit<EvidenceMeta, 'id'>;
  body: string;
  /** Artifacts written while preparing (removed again if the entry is not written). */
  artifacts: WrittenArtifact[];
}

export interface AddEvidenceResult {
  meta: EvidenceMeta;
  /** The entry file, relative to the repository root. */
  file: string;
  /** Secrets replaced in the summary, body and raw output. */
  redactions: number;
  truncated_bytes: number;
  /** Entry files removed to keep the newest evidence.keep. */
  removed: string[];
}

/** Redacts and caps an entry and copies its raw output; nothing is written to state/ yet. */
export function prepareEvidence(
  paths: StatePaths,
  config: Config,
  input: EvidenceInput,
  now: Date,
  agent: string | null = null,
): PreparedEvidence {
  if (!KIND.test(input.kind))
    throw new UsageError(`"${input.kind}" is not a valid evidence kind`, {
      hint: 'use a short lowercase word: test, checkpoint, decision, diff, note',
    });
  const oneLine = input.summary.replace(/\s+/g, ' ').trim();
  if (oneLine === '')
    throw new UsageError('the evidence summary is empty', {
      hint: 'say in one line what the entry shows',
    });
  const summary = redactSecrets(oneLine);
  const body = redactSecrets(input.body ?? '');
  const capped = truncateUtf8(body.text, config.evidence.max_bytes);
  const artifacts: WrittenArtifact[] = [];
  if (input.rawFile !== undefined) {
    requireInsideRepo(paths.root, input.rawFile, '--raw', input.allowOutside);
    if (!existsSync(input.rawFile) || !statSync(input.rawFile).isFile())
      throw new UsageError(`--raw ${input.rawFile}: no such file`, {
        hint: 'name a file holding the raw output (a log, a diff)',
      });
    const tag = randomBytes(3).toString('hex');
    artifacts.push(copyArtifact(paths, input.rawFile, artifactName(now, input.rawFile, tag)));
  }
  const refs = [...(input.refs ?? []), ...artifacts.map((a) => a.ref)];
  const max = SUMMARY_MAX_CHARS;
  const redactions = [summary, body, ...artifacts].reduce((n, r) => n + r.redactions, 0);
  const meta: Omit<EvidenceMeta, 'id'> = {
    ...(agent === null ? {} : { agent }),
    at: now.toISOString(),
    kind: input.kind,
    summary: summary.text.length > max ? `${summary.text.slice(0, max - 1)}…` : summary.text,
    redactions: redactions + (input.redactionsInRefs ?? 0),
    truncated_bytes: capped.truncatedBytes,
  };
  if (refs.length > 0) meta.refs = refs;
  return { meta, body: capped.text, artifacts };
}

/** Removes the artifacts of an entry that was not written. */
export function discardPrepared(prepared: PreparedEvidence): void {
  for (const artifact of prepared.artifacts) rmSync(artifact.path, { force: true });
}

/**
 * Writes a prepared entry, runs `alongside` (another write of the same step: checkpoint updates
 * progress.yaml), then prunes to evidence.keep. The caller holds the state lock. If `alongside`
 * throws, the new entry is removed again and nothing is pruned: all or nothing.
 */
export async function commitEvidenceLocked<T>(
  paths: StatePaths,
  config: Config,
  prepared: PreparedEvidence,
  alongside: () => T | Promise<T>,
): Promise<{ evidence: AddEvidenceResult; result: T }> {
  const written = writeEntryLocked(paths, prepared.meta, prepared.body);
  let result: T;
  try {
    result = await alongside();
  } catch (error) {
    rmSync(written.path, { force: true });
    throw error;
  }
  const removed = pruneEvidenceLocked(paths, config.evidence.keep);
  const { redactions = 0, truncated_bytes = 0 } = prepared.meta;
  const evidence = { meta: written.meta, file: written.file, redactions, truncated_bytes, removed };
  return { evidence, result };
}

/** Adds an evidence entry: redacted, capped, numbered; the oldest beyond evidence.keep are removed in the same locked step. */
export async function addEvidence(
  input: EvidenceInput,
  options: BaseOptions = {},
): Promise<AddEvidenceResult> {
  const paths = findRoot(options.cwd);
  const config = valueOrThrow(readConfig(paths));
  const now = (options.now ?? (() => new Date()))();
  const prepared = prepareEvidence(paths, config, input, now, resolveAgent(options));
  try {
    const { evidence } = await withStateLock(
      paths,
      () => commitEvidenceLocked(paths, config, prepared, () => undefined),
      options,
    );
    return evidence;
  } catch (error) {
    discardPrepared(prepared);
    throw error;
  }
}
