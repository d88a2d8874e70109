// `hook pre-commit`: the fast path a commit pays for. It reads only what the staged change needs
// (one `git diff --cached`, the staged blobs of state files and of marker-covered files) and loads
// the YAML parser and schema validators only when a state file is staged or a marker may apply.
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { sha256 } from '../fingerprint/hash-file.js';
import {
  committedBlob,
  stagedBlobs,
  stagedChanges,
  type StagedChange,
} from '../git/git-hook-calls.js';
import { gitPrefix } from '../git/snapshot.js';
import { locateRoot } from '../state/find-root.js';
import { ALLOW_FORBIDDEN_ENV, caseInsensitive } from '../state/forbidden.js';
import { parseGoals } from '../state/goals.js';
import { orElse } from '../state/or-else.js';
import { statePaths, type StatePaths } from '../state/paths.js';
import type { BaseOptions, Config, Marker } from '../types.js';
import {
  checkLiftedRules,
  checkStagedForbidden,
  checkStagedMarkers,
  markerCoverage,
  mayBeCovered,
  passes,
  stateFileKind,
  type HookFinding,
} from '../verify/staged-check.js';
import { markerFiles } from '../markers/marker-list.js';

/** What `hook pre-commit` concluded. */
export interface PreCommitResult {
  /** False when a finding blocks the commit. */
  ok: boolean;
  /** Why nothing was checked (AGENT_STATE=0, no .agent/), or null. */
  skipped: string | null;
  /** How many paths are staged. */
  staged: number;
  findings: HookFinding[];
}

function skip(skipped: string | null): PreCommitResult {
  return { ok: true, skipped, staged: 0, findings: [] };
}

interface Repo {
  gitRoot: string;
  paths: StatePaths;
  /** `.agent/` as a prefix of staged paths (the state root may sit below the work tree top). */
  agentPrefix: string;
  env: NodeJS.ProcessEnv;
  /** The staged changes under `.agent/` and elsewhere. */
  state: StagedChange[];
  work: StagedChange[];
  /** The staged bytes of the state files checked. */
  blobs: ReadonlyMap<string, Buffer | null>;
}

/** Runs the staged checks of a commit in progress. */
export async function runPreCommit(options: BaseOptions = {}): Promise<PreCommitResult> {
  const env = options.env ?? process.env;
  if (env.AGENT_STATE === '0') return skip('AGENT_STATE=0');
  // The pre-commit framework runs a hook without `stages` at every hook type it is installed for;
  // these variables mean the run is a post-checkout or post-merge one.
  if (env.PRE_COMMIT_CHECKOUT_TYPE !== undefined || env.PRE_COMMIT_IS_SQUASH_MERGE !== undefined)
    return skip('not a pre-commit run');
  const { root, gitRoot, initialized } = locateRoot(options.cwd ?? process.cwd());
  if (gitRoot === null)
    throw new UsageError(`${root} is not inside a git repository`, {
      hint: 'the pre-commit hook runs inside a git repository',
    });
  if (!initialized) return skip('no .agent/ directory');
  const agentPrefix = `${gitPrefix(root, gitRoot)}.agent/`;
  const staged = stagedChanges(gitRoot, { env });
  if (staged.length === 0) return skip(null);
  const state = staged.filter((c) => c.path.startsWith(agentPrefix));
  const work = staged.filter((c) => !c.path.startsWith(agentPrefix));
  const inAgent = (c: StagedChange) => c.path.slice(agentPrefix.length);
  const checked = state.filter((c) => c.status !== 'D' && stateFileKind(inAgent(c)) !== 'other');
  const paths = checked.map((c) => c.path);
  const blobs = paths.length > 0 ? stagedBlobs(gitRoot, paths, { env }) : new Map();
  const repo: Repo = { gitRoot, paths: statePaths(root), agentPrefix, env, state, work, blobs };
  const findings: HookFinding[] = [];
  if (state.length > 0) {
    const { checkStagedStateFiles } = await import('../verify/staged-state.js');
    const files = state.map((c) => ({
      path: c.path,
      inAgent: inAgent(c),
      bytes: blobs.get(c.path) ?? null,
    }));
    findings.push(...checkStagedStateFiles(files));
  }
  findings.push(...forbiddenFindings(repo));
  findings.push(...(await staleMarkers(repo, findings)));
  const shown = await firstShown(repo, findings);
  return { ok: passes(shown), skipped: null, staged: staged.length, findings: shown };
}

// A warning worth reading once (an empty goals.md section) is a note of one commit, not of all.
async function firstShown(repo: Repo, findings: HookFinding[]): Promise<HookFinding[]> {
  if (!findings.some((f) => f.once !== undefined)) return findings;
  const { firstShowings } = await import('../state/shown-warnings.js');
  const keys = findings.flatMap((f) =>
    f.once === undefined ? [] : [{ file: f.path, message: f.message, once: f.once }],
  );
  const fresh = new Set(firstShowings(repo.paths, keys).map((w) => w.once));
  return findings.filter((f) => f.once === undefined || fresh.has(f.once));
}

const rulesOf = (bytes: Buffer | null) =>
  bytes === null ? [] : parseGoals(bytes.toString('utf8')).goals.forbidden;

// Forbidden is judged by the committed goals.md and whatever rule the commit adds: a rule the
// commit removes still holds for it, and removing one needs the user's approval.
function forbiddenFindings(repo: Repo): HookFinding[] {
  const path = `${repo.agentPrefix}state/goals.md`;
  const change = repo.state.find((c) => c.path === path);
  if (!change && repo.work.length === 0) return [];
  const allow = repo.env[ALLOW_FORBIDDEN_ENV] === '1';
  const committed = rulesOf(committedBlob(repo.gitRoot, path, { env: repo.env }));
  const staged = rulesOf(
    change?.status === 'D' ? null : stagedOrWorking(repo, 'state/goals.md', repo.paths.goals),
  );
  const nocase = caseInsensitive(repo.paths.root);
  return [
    ...(change ? checkLiftedRules(path, committed, staged, allow) : []),
    ...checkStagedForbidden(repo.work, [...committed, ...staged], allow, nocase),
  ];
}

// The version being committed when the file is staged, else the working copy.
function stagedOrWorking(repo: Repo, inAgentPath: string, absolute: string): Buffer | null {
  return (
    repo.blobs.get(`${repo.agentPrefix}${inAgentPath}`) ??
    orElse(() => readFileSync(absolute), null)
  );
}

async function staleMarkers(repo: Repo, earlier: readonly HookFinding[]): Promise<HookFinding[]> {
  const progressPath = `${repo.agentPrefix}state/progress.yaml`;
  // An invalid staged progress.yaml is already reported; its markers cannot be trusted.
  if (earlier.some((f) => f.kind === 'invalid-state' && f.path === progressPath)) return [];
  const progress = stagedOrWorking(repo, 'state/progress.yaml', repo.paths.progress);
  if (progress === null || repo.work.length === 0) return [];
  const text = progress.toString('utf8');
  // A big marker's files are in its list, not in the text.
  const lists = text.includes('file_list:');
  const candidates = repo.work.filter((c) => lists || mayBeCovered(text, c.path));
  if (candidates.length === 0) return [];
  const { parseProgress } = await import('../state/progress.js');
  const markers: Record<string, Marker> = parseProgress(text, progressPath).value?.markers ?? {};
  for (const [id, marker] of Object.entries(markers))
    if (marker.file_list) {
      // A list that cannot be read is `check`'s and `verify`'s to report, not the commit's.
      const files = markerFiles(repo.paths, id, marker);
      markers[id] = { ...marker, files: typeof files === 'object' ? files : {} };
    }
  const coverage = markerCoverage(
    markers,
    candidates.map((c) => c.path),
  );
  if (coverage.size === 0) return [];
  const deleted = new Set(candidates.filter((c) => c.status === 'D').map((c) => c.path));
  const present = [...coverage.keys()].filter((p) => !deleted.has(p));
  const contents = stagedBlobs(repo.gitRoot, present, { env: repo.env });
  const hashes = new Map<string, string | null>();
  for (const path of coverage.keys()) {
    const bytes = deleted.has(path) ? null : contents.get(path);
    if (bytes !== undefined) hashes.set(path, bytes === null ? null : sha256(bytes));
  }
  const stale = checkStagedMarkers(markers, coverage, hashes, 'warn');
  if (stale.length === 0) return [];
  const mode = (await staleMarkerMode(repo)) ?? 'warn';
  return mode === 'warn' ? stale : checkStagedMarkers(markers, coverage, hashes, mode);
}

// hooks.stale_markers from the config being committed, else the working copy; null if unreadable.
async function staleMarkerMode(repo: Repo): Promise<Config['hooks']['stale_markers'] | null> {
  const bytes = stagedOrWorking(repo, 'config.yaml', repo.paths.config);
  if (bytes === null || !existsSync(repo.paths.agentDir)) return null;
  const { parseConfig } = await import('../state/config.js');
  return parseConfig(bytes.toString('utf8'), 'config.yaml').value?.hooks.stale_markers ?? null;
}
