// Reading the evidence folder: the list (newest last) and one entry by id.
import { InvalidStateError, UsageError } from '../errors.js';
import { findRoot } from '../state/find-root.js';
import type { Problem } from '../state/yaml-doc.js';
import type { BaseOptions } from '../types.js';
import { ENTRY_FILE, type EvidenceEntry } from './evidence-file.js';
import { entryFiles, readEntryFile, readEvidenceFolder } from './evidence-folder.js';

/** Every entry, oldest first, and the problems of the files that do not parse. */
export function listEvidence(options: BaseOptions = {}): {
  entries: EvidenceEntry[];
  problems: Problem[];
} {
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
  if (!file) {
    throw new UsageError(`no evidence entry ${id}`, {
      hint: files.length
        ? `entries present: ${files.map((f) => f.id).join(', ')}`
        : 'add one with `agent-state evidence add --kind note --summary "..."`',
    });
  }
  const { entry, problems } = readEntryFile(paths, file.name);
  if (!entry) {
    const first = problems[0];
    throw new InvalidStateError(first?.message ?? `evidence entry ${id} is invalid`, {
      location: first?.location,
      hint: first?.hint,
    });
  }
  return entry;
}
