// Collecting the fingerprint of the tree as it is now (I/O): git's answer for HEAD, branch and
// what differs from HEAD, content hashes of only the dirty, untracked and key files (git's index
// is trusted for the rest), and the runtime. Outside git: key files and a listing digest.
import { createHash } from '../text/lazy-crypto.js';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isGitUnavailable } from '../git/exec-git.js';
import { readGitSnapshot, type GitSnapshot } from '../git/snapshot.js';
import { valueOrThrow } from '../state/parsed-file.js';
import { findRepo, type Repo } from '../state/find-root.js';
import { isAgentPath, toRepoGlob } from '../state/repo-path.js';
import { readConfig } from '../state/store.js';
import type { BaseOptions, Config, FileState, Fingerprint, Warning } from '../types.js';
import { packageVersion } from '../package-root.js';
import { hasherAt, type FileHasher } from './hash-file.js';
import { resolveGlobs } from './resolve-globs.js';
import { walkFiles } from './walk.js';

/** Dirty and untracked files listed one by one; the rest are summarized (progress.yaml stays small). */
export const MAX_LISTED_FILES = 2000;
/** Outside git, the listing walk stops after this many files. */
export const MAX_WALK_FILES = 200_000;

export interface CollectOptions extends BaseOptions {
  /** Settings (key_files, fingerprint.max_hash_bytes); read from config.yaml when absent. */
  config?: Config;
  /** The state root and git top level, when the caller already found them. */
  repo?: Repo;
  /** How a file is hashed (a boot's goes through the hash cache); hashFile by default. */
  hash?: FileHasher;
}

/** A fresh fingerprint and what limited it. */
export interface CollectedFingerprint {
  fingerprint: Fingerprint;
  warnings: Warning[];
  /** git's whole answer, unabridged (null outside git): big markers' files are judged by it. */
  snapshot: GitSnapshot | null;
}

/** The tool and runtime a fingerprint records. */
export function currentRuntime(): Fingerprint['runtime'] {
  const platform = `${process.platform}-${process.arch}`;
  return { agent_state: packageVersion(), node: process.version, platform };
}

function statKey(root: string, path: string): string {
  try {
    const stats = lstatSync(join(root, path));
    return `${stats.size}\0${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

// Hashes the first MAX_LISTED_FILES changed paths (in path order) and folds the rest into a digest
// of path, size and mtime, so a huge untracked folder cannot blow up progress.yaml.
function recordChanges(
  root: string,
  snapshot: GitSnapshot,
  maxBytes: number,
  hash: FileHasher,
): Pick<Fingerprint, 'dirty' | 'untracked' | 'overflow'> {
  type Change = { path: string; kind: 'dirty' | 'untracked'; submodule?: string };
  const changes: Change[] = [];
  for (const { path, submodule } of snapshot.changed)
    if (!isAgentPath(path)) changes.push({ path, kind: 'dirty', submodule });
  for (const raw of snapshot.untracked) {
    const path = raw.replace(/\/$/, '');
    if (!isAgentPath(path)) changes.push({ path, kind: 'untracked' });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const dirty: Record<string, FileState> = {};
  const untracked: Record<string, FileState> = {};
  for (const { path, kind, submodule } of changes.slice(0, MAX_LISTED_FILES)) {
    const state = submodule?.startsWith('S')
      ? `submodule:${submodule}`
      : (hash(path, maxBytes) ?? 'deleted');
    if (kind === 'dirty') dirty[path] = state;
    else if (state !== 'deleted') untracked[path] = state;
  }
  const over = changes.slice(MAX_LISTED_FILES);
  if (over.length === 0) return { dirty, untracked, overflow: null };
  const rest = createHash('sha256');
  for (const { kind, path } of over) rest.update(`${kind}\0${path}\0${statKey(root, path)}\n`);
  return {
    dirty,
    untracked,
    overflow: { files: over.length, digest: `sha256:${rest.digest('hex')}` },
  };
}

function hashKeyFiles(
  root: string,
  globs: readonly string[],
  git: boolean,
  env: NodeJS.ProcessEnv | undefined,
  warnings: Warning[],
  hash: FileHasher,
): Record<string, FileState> {
  const keyFiles: Record<string, FileState> = {};
  if (globs.length === 0) return keyFiles;
  const confined: string[] = [];
  for (const glob of globs) {
    try {
      confined.push(toRepoGlob(root, root, glob));
    } catch {
      const message = `key_files: "${glob}" is outside the repository and was ignored`;
      warnings.push({ file: '.agent/config.yaml', message });
    }
  }
  for (const path of resolveGlobs(root, confined, { git, env }).files) {
    const state = hash(path);
    if (state !== null) keyFiles[path] = state;
  }
  return keyFiles;
}

function listingOf(root: string): NonNullable<Fingerprint['listing']> {
  const { files, truncated } = walkFiles(root, { limit: MAX_WALK_FILES });
  const hash = createHash('sha256');
  for (const path of [...files].sort()) hash.update(`${path}\0${statKey(root, path)}\n`);
  return { files: files.length, digest: `sha256:${hash.digest('hex')}`, truncated };
}

/** Collects the fingerprint of the state root's tree as it is now. */
export async function collectFingerprint(
  options: CollectOptions = {},
): Promise<CollectedFingerprint> {
  const repo = options.repo ?? findRepo(options.cwd);
  const root = repo.paths.root;
  const config = options.config ?? valueOrThrow(readConfig(repo.paths));
  const now = (options.now ?? (() => new Date()))();
  const warnings: Warning[] = [];
  const warn = (message: string) => warnings.push({ file: '.agent', message });
  const hash = options.hash ?? hasherAt(root);
  let snapshot: GitSnapshot | null = null;
  if (repo.gitRoot !== null) {
    try {
      snapshot = await readGitSnapshot(root, repo.gitRoot, options.env);
    } catch (error) {
      if (!isGitUnavailable(error)) throw error;
      warn('git is not installed: fingerprinting as if outside git');
    }
  }
  let changes: ReturnType<typeof recordChanges> = { dirty: {}, untracked: {}, overflow: null };
  let git: Fingerprint['git'] = null;
  let listing: Fingerprint['listing'] = null;
  if (snapshot === null) {
    warn(
      'not a git repository: the fingerprint holds key files and a listing digest only, so drift cannot name the files that changed',
    );
    listing = listingOf(root);
    if (listing.truncated) warn(`the listing stopped at ${MAX_WALK_FILES} files`);
  } else {
    const { changed: _changed, untracked: _untracked, ...fields } = snapshot;
    git = fields;
    changes = recordChanges(root, snapshot, config.fingerprint.max_hash_bytes, hash);
    if (changes.overflow)
      warn(
        `${changes.overflow.files} more changed files are summarized by a digest (only ${MAX_LISTED_FILES} are listed one by one)`,
      );
  }
  const keyFiles = hashKeyFiles(root, config.key_files, git !== null, options.env, warnings, hash);
  return {
    fingerprint: {
      at: now.toISOString(),
      git,
      ...changes,
      key_files: keyFiles,
      listing,
      runtime: currentRuntime(),
    },
    warnings,
    snapshot,
  };
}
