// Read → plan → apply for the host files an integration touches. Every file is read and its new
// content computed before anything is written, so bad input (a settings file that does not
// parse) stops the command with every file byte-identical. Removal gives back the original bytes
// when the file, once our part is taken out, means what it meant before we touched it.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { InvalidStateError } from '../../errors.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { hasBlock, removeBlock, upsertBlock, type BlockMarkers } from '../../text/managed-block.js';
import { detectJsonStyle, formatJson, parseJsonObject, type JsonObject } from './json-text.js';
import { forgetOriginal, readOriginal, saveOriginal } from './originals.js';
import { orElse } from '../or-else.js';

/** How one integration edits one file; all functions are pure over the file's text. */
export interface FileEdit {
  /** Absolute path. */
  path: string;
  /** How to name the file to the user (relative to the repository, or with ~). */
  display: string;
  /** The content with our part in (null: no file). */
  install(before: string | null): string | null;
  /** The content with our part out (null: delete the file). */
  remove(before: string | null): string | null;
  /** Whether `text` already holds our part (then the first-touch original is not saved again). */
  holdsOurs(before: string | null): boolean;
  /** Whether two contents mean the same (decides when the saved original can be restored). */
  equivalent(a: string | null, b: string | null): boolean;
}

export type ChangeAction = 'created' | 'updated' | 'unchanged' | 'removed' | 'restored' | 'deleted';

/** What happened (or, with dry-run, would happen) to one file. */
export interface IntegrationChange {
  file: string;
  action: ChangeAction;
  /** The content before and after (null: no file), for --dry-run diffs and tests. */
  before: string | null;
  after: string | null;
}

const MAX_HOST_FILE_BYTES = 4 * 1024 * 1024;

/** Reads a host file as text (null when absent); refuses directories and huge files. */
export function readHostFile(path: string, display: string): string | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  const refuse = (why: string, hint: string) =>
    new InvalidStateError(why, { location: { file: display }, hint });
  if (!stat.isFile())
    throw refuse('is not a regular file', 'move it out of the way and run the command again');
  if (stat.size > MAX_HOST_FILE_BYTES)
    throw refuse(
      `is ${stat.size} bytes, too big to be a settings file`,
      'check that the path is right',
    );
  return readFileSync(path, 'utf8');
}

// The directories that writing `path` will create, outermost first.
function missingDirs(path: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(path); !existsSync(dir); dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  return dirs;
}

interface Planned {
  edit: FileEdit;
  change: IntegrationChange;
  saveOriginal: boolean;
  /** Directories to remove when empty, after a removal that restored "no file". */
  cleanupDirs: string[];
}

function plan(edit: FileEdit, mode: 'install' | 'remove', env: NodeJS.ProcessEnv): Planned {
  const before = readHostFile(edit.path, edit.display);
  const planned = (action: ChangeAction, after: string | null, cleanupDirs: string[] = []) => ({
    edit,
    change: { file: edit.display, action, before, after },
    saveOriginal: mode === 'install' && action !== 'unchanged' && !edit.holdsOurs(before),
    cleanupDirs,
  });
  if (mode === 'install') {
    const after = edit.install(before);
    if (after === before) return planned('unchanged', after);
    return planned(before === null ? 'created' : after === null ? 'deleted' : 'updated', after);
  }
  const removed = edit.remove(before);
  if (removed === before) return planned('unchanged', removed);
  const saved = readOriginal(edit.path, env);
  const restore =
    saved !== undefined && saved.original !== removed && edit.equivalent(removed, saved.original);
  const after = restore ? saved.original : removed;
  if (after === before) return planned('unchanged', after);
  if (after === null) return planned('deleted', after, saved?.createdDirs);
  return planned(restore ? 'restored' : 'removed', after);
}

/**
 * Installs (or removes) every edit: computes all new contents first (a parse error throws before
 * any write), then writes them atomically. With `dryRun`, writes nothing. Returns what changed.
 */
export function applyEdits(
  edits: readonly FileEdit[],
  mode: 'install' | 'remove',
  options: { dryRun?: boolean; env: NodeJS.ProcessEnv; now: Date },
): IntegrationChange[] {
  const planned = edits.map((edit) => plan(edit, mode, options.env));
  if (options.dryRun) return planned.map((p) => p.change);
  for (const { edit, change, saveOriginal: save, cleanupDirs } of planned) {
    if (save)
      saveOriginal(edit.path, change.before, missingDirs(edit.path), options.env, options.now);
    if (change.action === 'unchanged') continue;
    if (change.after === null) rmSync(edit.path, { force: true });
    else {
      mkdirSync(dirname(edit.path), { recursive: true });
      writeFileAtomic(edit.path, change.after);
    }
    if (mode === 'install') continue;
    forgetOriginal(edit.path, options.env);
    // Directories we created, deepest first, as long as they are empty.
    for (const dir of [...cleanupDirs].reverse()) {
      try {
        if (readdirSync(dir).length > 0) break;
        rmdirSync(dir);
      } catch {
        break;
      }
    }
  }
  return planned.map((p) => p.change);
}

// `equivalent` for JSON settings files: same parsed value (absent and empty mean `{}`).
const sameJson = (a: string | null, b: string | null): boolean =>
  orElse(
    () => isDeepStrictEqual(parseJsonObject(a ?? '', 'a'), parseJsonObject(b ?? '', 'b')),
    false,
  );

/** A JSON settings file's edit as pure transforms of the parsed object (they must not mutate). */
export interface JsonEditSpec extends Pick<FileEdit, 'path' | 'display'> {
  install(settings: JsonObject): JsonObject;
  remove(settings: JsonObject): JsonObject;
  holdsOurs(settings: JsonObject): boolean;
}

/**
 * The FileEdit of a JSON settings file. The file keeps its own layout; an edit that changes
 * nothing returns the original text untouched.
 */
export function jsonEdit(spec: JsonEditSpec): FileEdit {
  const rewrite = (before: string | null, transform: (s: JsonObject) => JsonObject) => {
    const settings = parseJsonObject(before ?? '', spec.display);
    const next = transform(settings);
    return isDeepStrictEqual(next, settings)
      ? before
      : formatJson(next, detectJsonStyle(before ?? ''));
  };
  return {
    path: spec.path,
    display: spec.display,
    install: (before) => rewrite(before, spec.install),
    remove: (before) => (before === null ? null : rewrite(before, spec.remove)),
    holdsOurs: (before) => before !== null && spec.holdsOurs(parseJsonObject(before, spec.display)),
    equivalent: sameJson,
  };
}

/**
 * The FileEdit of a text file with a managed block (AGENTS.md, GEMINI.md, config.toml): `body`
 * may follow from the text outside it, and an empty one takes the block out. Removing the block
 * from a file we created deletes the file.
 */
export function textEdit(
  path: string,
  display: string,
  body: string | ((before: string) => string),
  markers: BlockMarkers,
): FileEdit {
  return {
    path,
    display,
    install: (before) => {
      const text = typeof body === 'string' ? body : body(before ?? '');
      if (text !== '') return upsertBlock(before ?? '', text, markers);
      return before === null ? null : removeBlock(before, markers);
    },
    remove: (before) => (before === null ? null : removeBlock(before, markers)),
    holdsOurs: (before) => before !== null && hasBlock(before, markers),
    // Same text up to trailing whitespace (absent means empty).
    equivalent: (a, b) => (a ?? '').replace(/\s+$/, '') === (b ?? '').replace(/\s+$/, ''),
  };
}
