// The live facts of a boot (I/O): completion markers judged against the files on disk, the drift
// since the last checkpoint's fingerprint, and the evidence entries. This is the one place that
// gathers them; the renderer only sees the results.
import { readEvidenceFolder } from '../evidence/evidence-folder.js';
import { prefetchGitSnapshot } from '../git/snapshot.js';
import { checkProgressMarkers } from '../markers/check-markers.js';
import type { Repo } from '../state/repo.js';
import type { Config, Progress, Warning } from '../types.js';
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

/** Starts what can run before the state is read: the git snapshot that drift will need. */
export function prepareLiveFacts(repo: Repo, needs: FactNeeds, env?: NodeJS.ProcessEnv): void {
  if (needs.drift && repo.gitRoot !== null) prefetchGitSnapshot(repo.paths.root, repo.gitRoot, env);
}

/**
 * Gathers the facts for `progress` (as stored now): markers from live hashes, drift against
 * `progress.fingerprint` (null before the first checkpoint), and the evidence entries.
 */
export async function collectLiveFacts(
  repo: Repo,
  config: Config,
  progress: Progress,
  needs: FactNeeds,
  env?: NodeJS.ProcessEnv,
): Promise<LiveFacts> {
  const root = repo.paths.root;
  const warnings: Warning[] = [];
  const markers = needs.markers ? checkProgressMarkers(root, progress) : [];
  let drift: BootDrift | null = null;
  const recorded = progress.fingerprint ?? null;
  if (needs.drift && recorded) {
    // Loaded only when there is drift to measure (auto or level 3, after a checkpoint).
    const [{ collectFingerprint }, { measureDrift }] = await Promise.all([
      import('../fingerprint/collect.js'),
      import('../fingerprint/measure-drift.js'),
    ]);
    const current = await collectFingerprint({ cwd: root, env, repo, config });
    warnings.push(...current.warnings);
    drift = await measureDrift(root, recorded, current.fingerprint, {
      env,
      maxHashBytes: config.fingerprint.max_hash_bytes,
    });
  }
  const { entries, problems } = readEvidenceFolder(repo.paths);
  for (const problem of problems) {
    warnings.push({
      file: problem.location.file,
      line: problem.location.line,
      message: `${problem.message} (left out of the boot prompt)`,
    });
  }
  return { markers, drift, evidence: entries, warnings };
}
