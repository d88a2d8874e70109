// The capped evidence folder (state/evidence/): writing, pruning to the newest
// `evidence.keep` entries (and the artifacts only they referred to), listing, and reading by id.
import { randomBytes } from '../text/lazy-crypto.js';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidStateError, UsageError } from '../errors.js';
import { findRoot } from '../state/find-root.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { displayPath, type StatePaths } from '../state/paths.js';
import { decodeStateText } from '../state/read-text.js';
import type { Problem } from '../state/yaml-doc.js';
import type { BaseOptions } from '../types.js';
import {
  ENTRY_FILE,
  parseEntry,
  renderEntry,
  slugify,
  type EvidenceEntry,
  type EvidenceMeta,
} from './evidence-file.js';
import { compareEntryIds, uniqueEntryId } from './entry-id.js';

const RESTORE_HINT =
  'restore it from git or delete it (evidence entries are summaries; git history keeps them)';

/** The entry files present, oldest first (by id). */
export function entryFiles(paths: StatePaths): { id: string; name: string }[] {
  let names: string[];
  try {
    names = readdirSync(paths.evidenceDir);
  } catch {
    return [];
  }
  const files = names.flatMap((name) => {
    const id = ENTRY_FILE.exec(name)?.[1];
    return id === undefined ? [] : [{ id, name }];
  });
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return files.sort((a, b) => compareEntryIds(a.id, b.id) || byName(a.name, b.name));
}

/** Reads one entry file; bad content gives problems, never a throw. */
export function readEntryFile(
  paths: StatePaths,
  name: string,
): { entry: EvidenceEntry | undefined; problems: Problem[] } {
  const path = join(paths.evidenceDir, name);
  const file = displayPath(paths, path);
  let text: string;
  try {
    text = decodeStateText(readFileSync(path), { display: file, restoreHint: RESTORE_HINT });
  } catch (error) {
    if (!(error instanceof InvalidStateError)) throw error;
    const { location = { file }, message, hint = '' } = error;
    return { entry: undefined, problems: [{ location, message, hint }] };
  }
  const { meta, body, problems } = parseEntry(text, file);
  const fromName = ENTRY_FILE.exec(name)?.[1];
  if (meta && fromName !== undefined && meta.id !== fromName) {
    problems.push({
      location: { file, line: 2 },
      message: `${file} has id "${meta.id}" but its file name says ${fromName}`,
      hint: `set id: "${fromName}" in the front matter`,
    });
    return { entry: undefined, problems };
  }
  return { entry: meta ? { ...meta, file, body } : undefined, problems };
}

/** Writes a new entry with a unique id (entry-id.ts); the caller holds the state lock. */
export function writeEntryLocked(
  paths: StatePaths,
  meta: Omit<EvidenceMeta, 'id'>,
  body: string,
): { meta: EvidenceMeta; file: string; path: string } {
  const id = uniqueEntryId(new Date(meta.at), randomBytes(3).toString('hex'));
  const full: EvidenceMeta = { id, ...meta };
  const name = `${id}-${slugify(meta.summary, meta.kind)}.md`;
  const path = join(paths.evidenceDir, name);
  mkdirSync(paths.evidenceDir, { recursive: true });
  writeFileAtomic(path, renderEntry(full, body));
  return { meta: full, file: displayPath(paths, path), path };
}

/** Removes the oldest entries beyond `keep`, then the artifacts only they referred to; the caller holds the lock. */
export function pruneEvidenceLocked(paths: StatePaths, keep: number): string[] {
  const files = entryFiles(paths);
  const excess = files.slice(0, Math.max(0, files.length - keep));
  if (excess.length === 0) return [];
  const refsOf = (name: string): string[] => {
    try {
      return readEntryFile(paths, name).entry?.refs?.map((r) => r.path) ?? [];
    } catch {
      return [];
    }
  };
  const orphaned = new Set(excess.flatMap((f) => refsOf(f.name)));
  for (const kept of files.slice(excess.length))
    for (const ref of refsOf(kept.name)) orphaned.delete(ref);
  const removed = excess.map((file) => {
    const path = join(paths.evidenceDir, file.name);
    rmSync(path, { force: true });
    return displayPath(paths, path);
  });
  // Only artifacts of ours, which lie flat in artifacts/: a hand-edited ref must not delete
  // anything else, through `..` or a linked folder.
  for (const ref of orphaned)
    if (/^\.agent\/artifacts\/(?!\.\.?$)[^/]+$/.test(ref))
      rmSync(join(paths.root, ref), { force: true });
  return removed;
}

/** Every entry, oldest first, with the problems of those that do not parse. */
export function readEvidenceFolder(paths: StatePaths) {
  const entries: EvidenceEntry[] = [];
  const problems: Problem[] = [];
  if (!existsSync(paths.evidenceDir)) return { entries, problems };
  for (const { name } of entryFiles(paths)) {
    const read = readEntryFile(paths, name);
    if (read.entry) entries.push(read.entry);
    problems.push(...read.problems);
  }
  return { entries, problems };
}

/** Every entry, oldest first, and the problems of the files that do not parse. */
export function listEvidence(options: BaseOptions = {}): ReturnType<typeof readEvidenceFolder> {
  return readEvidenceFolder(findRoot(options.cwd));
}

/**
 * One entry by id (`12`, `000012`, a unique id or its six random hex digits, or its file name);
 * throws UsageError when absent or invalid.
 */
export function readEvidence(id: string, options: BaseOptions = {}): EvidenceEntry {
  const paths = findRoot(options.cwd);
  const name = id.replace(/^.*\//, '');
  const files = entryFiles(paths);
  const wanted = /^\d{1,6}$/.test(id)
    ? id.padStart(6, '0')
    : (ENTRY_FILE.exec(name.endsWith('.md') ? name : `${name}.md`)?.[1] ??
      name.replace(/\.md$/, ''));
  const file =
    files.find((f) => f.id === wanted) ??
    (/^[0-9a-f]{6}$/.test(id) ? files.find((f) => f.id.endsWith(`-${id}`)) : undefined);
  if (!file)
    throw new UsageError(`no evidence entry ${id}`, {
      hint: files.length
        ? `entries present: ${files.map((f) => f.id).join(', ')}`
        : 'add one with `agent-state evidence add --kind note --summary "..."`',
    });
  const { entry, problems } = readEntryFile(paths, file.name);
  if (entry) return entry;
  const first = problems[0];
  throw new InvalidStateError(first?.message ?? `evidence entry ${id} is invalid`, {
    location: first?.location,
    hint: first?.hint,
  });
}
