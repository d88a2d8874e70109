// Evidence entries as MCP resources, read straight from the folder (the files are the
// interface): `NNNNNN-<slug>.md`, newest last.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { StatePaths } from '../../state/paths.js';

const ENTRY = /^(\d{6})-[^/\\]*\.md$/;

/** The evidence entries on disk, oldest first: id (the number) and file name. */
export function listEvidenceFiles(paths: StatePaths): { id: string; name: string }[] {
  let names: string[];
  try {
    names = readdirSync(paths.evidenceDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => ENTRY.test(n))
    .sort()
    .map((name) => ({ id: ENTRY.exec(name)![1]!, name }));
}

/** The text of one entry, by its number (or file name); UsageError when there is none. */
export function readEvidenceFile(paths: StatePaths, id: string): string {
  const wanted = id.replace(/\.md$/, '');
  const entry = listEvidenceFiles(paths).find(
    (e) => e.id === wanted || e.name === `${wanted}.md` || Number(e.id) === Number(wanted),
  );
  if (!entry)
    throw new UsageError(`no evidence entry "${id}"`, { hint: 'list them with resources/list' });
  return readFileSync(join(paths.evidenceDir, entry.name), 'utf8');
}
