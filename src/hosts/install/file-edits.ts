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

export interface ApplyOptions {
  dryRun?: boolean;
  env: NodeJS.ProcessEnv;
  now: Date;
}

const MAX_HOST_FILE_BYTES = 4 * 1024 * 1024;

/** Reads a host file as text (null when absent); refuses directories and huge files. */
export function readHostFile(path: string, display: string): string | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  if (!stat.isFile()) {
    throw new InvalidStateError('is not a regular file', {
      location: { file: display },
      hint: 'move it out of the way and run the command again',
    });
  }
  if (stat.size > MAX_HOST_FILE_BYTES) {
    throw new InvalidStateError(`is ${stat.size} bytes, too big to be a settings file`, {
      location: { file: display },
      hint: 'check that the path is right',
    });
  }
  return readFileSync(path, 'utf8');
}

function write(path: string, content: string | null): void {
  if (content === null) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, content);
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

// Removes directories we created, deepest first, as long as they are empty.
function removeEmptyDirs(dirs: readonly string[]): void {
  for (const dir of [...dirs].reverse()) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

interface Planned {
  edit: FileEdit;
  change: IntegrationChange;
  saveOriginal: boolean;
  /** Directories to remove when empty, after a removal that restored "no file". */
  cleanupDirs: string[];
}

function planInstall(edit: FileEdit): Planned {
  const before = readHostFile(edit.path, edit.display);
  const after = edit.install(before);
  const action: ChangeAction =
    after === before
      ? 'unchanged'
      : before === null
        ? 'created'
        : after === null
          ? 'deleted'
          : 'updated';
  return {
    edit,
    change: { file: edit.display, action, before, after },
    saveOriginal: action !== 'unchanged' && !edit.holdsOurs(before),
    cleanupDirs: [],
  };
}

function planRemove(edit: FileEdit, env: NodeJS.ProcessEnv): Planned {
  const before = readHostFile(edit.path, edit.display);
  let after = edit.remove(before);
  let restored = false;
  const saved = after === before ? undefined : readOriginal(edit.path, env);
  if (saved && saved.original !== after && edit.equivalent(after, saved.original)) {
    after = saved.original;
    restored = true;
  }
  const action: ChangeAction =
    after === before ? 'unchanged' : after === null ? 'deleted' : restored ? 'restored' : 'removed';
  return {
    edit,
    change: { file: edit.display, action, before, after },
    saveOriginal: false,
    cleanupDirs: after === null ? (saved?.createdDirs ?? []) : [],
  };
}

/**
 * Installs (or removes) every edit: computes all new contents first (a parse error throws before
 * any write), then writes them atomically. With `dryRun`, writes nothing. Returns what changed.
 */
export function applyEdits(
  edits: readonly FileEdit[],
  mode: 'install' | 'remove',
  options: ApplyOptions,
): IntegrationChange[] {
  const planned = edits.map((edit) =>
    mode === 'install' ? planInstall(edit) : planRemove(edit, options.env),
  );
  if (options.dryRun) return planned.map((p) => p.change);
  for (const { edit, change, saveOriginal: save, cleanupDirs } of planned) {
    if (save)
      saveOriginal(edit.path, change.before, missingDirs(edit.path), options.env, options.now);
    if (change.action !== 'unchanged') write(edit.path, change.after);
    if (mode === 'remove' && change.action !== 'unchanged') {
      forgetOriginal(edit.path, options.env);
      removeEmptyDirs(cleanupDirs);
    }
  }
  return planned.map((p) => p.change);
}

/** `equivalent` for JSON settings files: same parsed value (absent and empty mean `{}`). */
export function sameJson(a: string | null, b: string | null): boolean {
  try {
    return isDeepStrictEqual(parseJsonObject(a ?? '', 'a'), parseJsonObject(b ?? '', 'b'));
  } catch {
    return false;
  }
}

/** `equivalent` for text files: same text up to trailing whitespace (absent means empty). */
export function sameText(a: string | null, b: string | null): boolean {
  return (a ?? '').replace(/\s+$/, '') === (b ?? '').replace(/\s+$/, '');
}

// A FileEdit for a JSON settings file, built from pure transforms of the parsed object. The file
// keeps its own layout; an edit that changes nothing returns the original text untouched.
export interface JsonEditSpec {
  path: string;
  display: string;
  /** Puts our part in (pure; must not mutate). */
  install(settings: JsonObject): JsonObject;
  /** Takes our part out (pure; must not mutate). */
  remove(settings: JsonObject): JsonObject;
  /** Whether the settings hold our part. */
  holdsOurs(settings: JsonObject): boolean;
}

function rewrite(
  before: string | null,
  display: string,
  transform: (settings: JsonObject) => JsonObject,
): string | null {
  const settings = parseJsonObject(before ?? '', display);
  const next = transform(settings);
  if (isDeepStrictEqual(next, settings)) return before;
  return formatJson(next, detectJsonStyle(before ?? ''));
}

/** The FileEdit of a JSON settings file. */
export function jsonEdit(spec: JsonEditSpec): FileEdit {
  return {
    path: spec.path,
    display: spec.display,
    install: (before) => rewrite(before, spec.display, spec.install),
    remove: (before) => (before === null ? null : rewrite(before, spec.display, spec.remove)),
    holdsOurs: (before) => before !== null && spec.holdsOurs(parseJsonObject(before, spec.display)),
    equivalent: sameJson,
  };
}

// A FileEdit for a text file that holds one managed block (AGENTS.md, GEMINI.md, config.toml).
export interface TextEditSpec {
  path: string;
  display: string;
  /** The block's body (without markers). */
  body: string;
  markers: BlockMarkers;
}

/** The FileEdit of a text file with a managed block; removing it from a file we created deletes it. */
export function textEdit(spec: TextEditSpec): FileEdit {
  return {
    path: spec.path,
    display: spec.display,
    install: (before) => upsertBlock(before ?? '', spec.body, spec.markers),
    remove: (before) => {
      if (before === null) return null;
      return removeBlock(before, spec.markers);
    },
    holdsOurs: (before) => before !== null && hasBlock(before, spec.markers),
    equivalent: sameText,
  };
}
