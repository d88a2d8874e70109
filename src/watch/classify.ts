// What a change seen by `watch` means: a Forbidden path (with its rule), a state file (valid or
// not, with the problems), or git (HEAD moved, index changed). Pure apart from reading the file.
import { readFileSync } from 'node:fs';
import { formatLocation } from '../errors.js';
import { stateFileKind } from '../verify/staged-check.js';
import { checkStagedStateFiles } from '../verify/staged-state.js';
import type { ForbiddenMatcher } from '../state/forbidden.js';

/** One change `watch` reports. */
export interface WatchEvent {
  /** ISO 8601 UTC. */
  at: string;
  event: 'add' | 'change' | 'unlink';
  kind: 'forbidden' | 'state' | 'git';
  /** POSIX path relative to the root (`.git/HEAD` and `.git/index` for git). */
  path: string;
  /** For forbidden: the Forbidden entry and the glob that matched. */
  rule: string | null;
  glob: string | null;
  /** For state files: whether the new content validates (null for goals.md warnings only, or a deletion). */
  valid: boolean | null;
  problems: { at: string; message: string; hint: string }[];
  warnings: string[];
  /** For .git/HEAD: the branch now checked out (null when detached). */
  branch?: string | null;
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** Reads HEAD the way git writes it: `ref: refs/heads/<branch>` or a detached commit. */
export function branchOfHead(text: string): string | null {
  const match = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(text);
  return match ? match[1]! : null;
}

/**
 * Classifies a change at `rel` (relative to the root, POSIX), or returns null when the path is
 * none of ours (a file in a watched directory that no Forbidden glob covers).
 */
export function classifyChange(
  event: WatchEvent['event'],
  rel: string,
  absolute: string,
  matcher: ForbiddenMatcher,
  at: string,
): WatchEvent | null {
  const none = { rule: null, glob: null, valid: null } as const;
  const base = { at, event, path: rel, ...none, problems: [], warnings: [] };
  if (rel === '.git/HEAD') {
    const text = readBytes(absolute)?.toString('utf8') ?? '';
    return { ...base, kind: 'git', branch: branchOfHead(text) };
  }
  if (rel === '.git/index') return { ...base, kind: 'git' };
  if (rel.startsWith('.agent/')) {
    const inAgent = rel.slice('.agent/'.length);
    const kind = stateFileKind(inAgent);
    if (kind === 'local' || kind === 'other') return null;
    if (event === 'unlink') return { ...base, kind: 'state' };
    const bytes = readBytes(absolute);
    if (bytes === null) return null; // gone again before we read it
    const findings = checkStagedStateFiles([{ path: rel, inAgent, bytes }]);
    const problems = findings
      .filter((f) => f.severity === 'block')
      .map((f) => ({
        at: formatLocation({ file: f.path, line: f.line, column: f.column }),
        message: f.message,
        hint: f.hint,
      }));
    const warnings = findings.filter((f) => f.severity !== 'block').map((f) => f.message);
    return { ...base, kind: 'state', valid: problems.length === 0, problems, warnings };
  }
  const hit = matcher(rel);
  if (!hit) return null;
  return { ...base, kind: 'forbidden', rule: hit.rule, glob: hit.glob };
}
