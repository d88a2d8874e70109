// Evidence entries as MCP resources: the files as written (the files are the interface), listed by
// the evidence folder's own reader (entryFiles).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { entryFiles } from '../evidence/evidence-folder.js';
import type { StatePaths } from '../state/paths.js';

/** The text of one entry, by its number (or file name); UsageError when there is none. */
export function readEvidenceFile(paths: StatePaths, id: string): string {
  const wanted = id.replace(/\.md$/, '');
  const entry = entryFiles(paths).find(
    (e) => e.id === wanted || e.name === `${wanted}.md` || Number(e.id) === Number(wanted),
  );
  if (!entry)
    throw new UsageError(`no evidence entry "${id}"`, { hint: 'list them with resources/list' });
  return readFileSync(join(paths.evidenceDir, entry.name), 'utf8');
}
