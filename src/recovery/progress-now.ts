// The progress digest now (I/O, cheap): progress.yaml plus evidence, recorded edits and HEAD,
// read alike by a boot and `status`, so both agree on "no progress since the last boot".
import { entryFiles } from '../evidence/evidence-folder.js';
import type { StatusSnapshot } from '../events/types.js';
import { readHead } from '../git/head.js';
import type { Repo } from '../state/find-root.js';
import type { Progress } from '../types.js';
import { digestProgress, type ProgressDigest, type ProgressExtras } from './rules.js';

/** The `edits` part: it moves whenever the hooks record an edit, and at every checkpoint. */
export function editsMark(snapshot: StatusSnapshot): string {
  return `${snapshot.checkpoint?.seq ?? 0}:${snapshot.files.count}`;
}

/** The progress parts outside progress.yaml (`head` when the caller knows it already). */
export function progressExtras(
  repo: Repo,
  snapshot: StatusSnapshot,
  head: string | null,
): ProgressExtras {
  const files = entryFiles(repo.paths);
  return {
    evidence: { newest: files[files.length - 1]?.id ?? null, count: files.length },
    edits: editsMark(snapshot),
    head,
  };
}

/** The progress digest of the task as it is now. */
export function progressNow(
  repo: Repo,
  progress: Progress,
  snapshot: StatusSnapshot,
  env?: NodeJS.ProcessEnv,
): ProgressDigest {
  const head = repo.gitRoot !== null ? readHead(repo.paths.root, env) : null;
  return digestProgress(progress, progressExtras(repo, snapshot, head));
}
