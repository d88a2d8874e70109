// The live state of a boot (I/O), gathered in this one place: markers judged against the disk, the
// drift since the last checkpoint, the evidence, and what the agent's own records explain.
import { readEvidenceFolder } from '../evidence/evidence-folder.js';
import { emptySnapshot } from '../events/reduce.js';
import { loadStatus } from '../events/status-cache.js';
import type { StatusSnapshot } from '../events/types.js';
import { readHead } from '../git/head.js';
import { readStashed } from '../git/history.js';
import type { GitSnapshot } from '../git/snapshot.js';
import { openHashCache } from '../fingerprint/hash-cache.js';
import { checkProgressMarkers, markerFiles } from '../markers/check-markers.js';
import { judgeDrift, judgeStale } from '../recovery/rules.js';
import { readOwnFacts, treeNow } from '../recovery/own-facts.js';
import { progressExtras } from '../recovery/progress-now.js';
import type { Repo } from '../state/find-root.js';
import { COMMITTED_STATE_PATHS } from '../state/paths.js';
import type { Config, Fingerprint, Progress, Warning } from '../types.js';
import type { Drift } from '../fingerprint/diff.js';

/** The live state for `progress` as stored now (drift is null before the first checkpoint). */
export async function collectLiveState(
  repo: Repo,
  config: Config,
  progress: Progress,
  env?: NodeJS.ProcessEnv,
) {
  const { root, logDir } = repo.paths;
  const maxHashBytes = config.fingerprint.max_hash_bytes;
  const warnings: Warning[] = [];
  const recorded = progress.fingerprint ?? null;
  let drift: Drift | null = null;
  let current: Fingerprint | null = null;
  let snapshot: GitSnapshot | null = null;
  // One hash cache for the boot: a file unchanged since the last boot is a stat, not a read.
  const cache = openHashCache(root, logDir);
  const hash = cache.hash;
  if (repo.gitRoot !== null || recorded) {
    // Loaded only here: a boot is the one command that always needs them.
    const [{ collectFingerprint }, { measureDrift }] = await Promise.all([
      import('../fingerprint/collect.js'),
      import('../fingerprint/measure-drift.js'),
    ]);
    const collected = await collectFingerprint({ cwd: root, env, repo, config, hash });
    current = collected.fingerprint;
    snapshot = collected.snapshot;
    warnings.push(...collected.warnings);
    if (recorded) drift = await measureDrift(root, recorded, current, { env, maxHashBytes, hash });
  }
  const markers = checkProgressMarkers(root, progress, undefined, logDir, { snapshot, env, cache });
  let status: StatusSnapshot;
  try {
    status = loadStatus(repo.paths).snapshot;
  } catch {
    // An unreadable log costs the own facts (changes then count as foreign), never the boot.
    status = emptySnapshot();
  }
  const own = readOwnFacts(repo, recorded?.at ?? null, status, env);
  const stale = markers.filter((m) => m.state === 'stale');
  const judged = [
    ...[...(drift?.files ?? []), ...(drift?.key_files ?? [])].map((f) => f.path),
    ...stale.flatMap((m) => m.changed.map((c) => c.path)),
  ];
  const tree = treeNow(root, judged, current, maxHashBytes, hash);
  cache.save(markerFiles(progress));
  const verdict = judgeDrift(drift, own, tree);
  // Before the first checkpoint, the agent's own edits: the files its hooks saw it write that
  // still differ from HEAD (nothing was recorded to call anything foreign against).
  if (!drift && current)
    for (const path of Object.keys(own.files).sort())
      if (path in current.dirty || path in current.untracked)
        verdict.ownFiles.push({ path, own: true, why: 'you edited it' });
  const { entries, problems } = readEvidenceFolder(repo.paths);
  for (const { location, message } of problems) {
    const { file, line } = location;
    warnings.push({ file, line, message: `${message} (left out of the boot prompt)` });
  }
  // The fingerprint's HEAD when it has one, even null (no commit yet): git said so just now.
  const head = current?.git ? current.git.head : repo.gitRoot === null ? null : readHead(root, env);
  return {
    markers,
    drift,
    evidence: entries,
    verdict,
    stale: judgeStale(stale, verdict, own, tree),
    // What progress.yaml does not hold of the progress digest.
    extras: progressExtras(repo, status, head),
    warnings,
    stashed:
      repo.gitRoot === null ? [] : readStashed(root, repo.gitRoot, COMMITTED_STATE_PATHS, env),
  };
}
