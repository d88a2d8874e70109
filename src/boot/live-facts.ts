// The live facts of a boot (I/O): completion markers judged against the files on disk, the drift
// since the last checkpoint, and the evidence entries. This is the one place that gathers them;
// the renderer only sees the results.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse } from 'yaml';
import { displayPath, type StatePaths } from '../state/paths.js';
import type { Progress, Warning } from '../types.js';
import type { BootDrift, BootEvidence, BootMarker } from './types.js';

/** Which facts a boot needs (level 1 needs no markers; only level 3 and auto need drift). */
export interface FactNeeds {
  markers: boolean;
  drift: boolean;
}

export interface LiveFacts {
  markers: BootMarker[];
  drift: BootDrift | null;
  evidence: BootEvidence[];
  warnings: Warning[];
}

function sha256File(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  } catch {
    return null;
  }
}

// A marker path must stay inside the root, also through symlinks (DESIGN §8).
function inside(root: string, path: string): boolean {
  if (path.startsWith('/') || path.split('/').includes('..')) return false;
  try {
    const real = realpathSync(join(root, path));
    const rel = relative(realpathSync(root), real);
    return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
  } catch {
    return true; // a missing file is judged (deleted) by the hash step
  }
}

/** Judges every completion marker against the files on disk now. */
export function judgeMarkers(root: string, progress: Progress): BootMarker[] {
  return Object.entries(progress.markers ?? {}).map(([id, marker]) => {
    const files = Object.entries(marker.files);
    const changed: BootMarker['changed'] = [];
    for (const [path, hash] of files) {
      if (!inside(root, path)) changed.push({ path, reason: 'outside' });
      else {
        const now = sha256File(join(root, path));
        if (now === null) changed.push({ path, reason: 'deleted' });
        else if (now !== hash) changed.push({ path, reason: 'changed' });
      }
    }
    const state = files.length === 0 ? 'unverifiable' : changed.length ? 'stale' : 'valid';
    return { id, state, changed };
  });
}

const ENTRY_FILE = /^(\d{6})-[^/]*\.md$/;

/** Reads the evidence entries (front matter and body); an unreadable entry is a warning. */
export function readEvidenceEntries(paths: StatePaths): {
  entries: BootEvidence[];
  warnings: Warning[];
} {
  const entries: BootEvidence[] = [];
  const warnings: Warning[] = [];
  if (!existsSync(paths.evidenceDir)) return { entries, warnings };
  for (const name of readdirSync(paths.evidenceDir)
    .filter((n) => ENTRY_FILE.test(n))
    .sort()) {
    const file = join(paths.evidenceDir, name);
    const display = displayPath(paths, file);
    try {
      const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
      const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
      const meta = match ? (parse(match[1]!) as Record<string, unknown> | null) : null;
      if (!match || !meta || typeof meta.summary !== 'string' || typeof meta.kind !== 'string') {
        warnings.push({
          file: display,
          line: 1,
          message:
            'not an evidence entry (front matter with kind and summary expected); left out of the boot prompt',
        });
        continue;
      }
      entries.push({
        id: typeof meta.id === 'string' ? meta.id : ENTRY_FILE.exec(name)![1]!,
        at: typeof meta.at === 'string' ? meta.at : '',
        kind: meta.kind,
        summary: meta.summary,
        body: match[2]!.trim(),
      });
    } catch (error) {
      warnings.push({
        file: display,
        line: 1,
        message: `unreadable evidence entry: ${(error as Error).message.split('\n')[0]}`,
      });
    }
  }
  return { entries, warnings };
}

/** Gathers what the boot needs; drift is null until a fingerprint module provides it. */
export function collectLiveFacts(
  paths: StatePaths,
  progress: Progress,
  needs: FactNeeds,
): LiveFacts {
  const { entries, warnings } = readEvidenceEntries(paths);
  return {
    markers: needs.markers ? judgeMarkers(paths.root, progress) : [],
    drift: null,
    evidence: entries,
    warnings,
  };
}
