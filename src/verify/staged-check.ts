// The pre-commit rules as pure functions: staged paths (and hashes) in, findings out.
import type { StagedChange } from '../git/git-hook-calls.js';
import { ALLOW_FORBIDDEN_ENV, compileForbidden, liftedGlobs } from '../state/forbidden.js';
import { shellQuote } from '../text/safe-text.js';
import type { ForbiddenEntry, Marker } from '../types.js';

/** What a finding is about. */
export type HookFindingKind =
  | 'invalid-state' // a staged state file does not parse or validate
  | 'state-warning' // a staged state file has a non-fatal problem
  | 'local-file' // a machine-local file under .agent/ is staged
  | 'forbidden' // a staged path matches a Forbidden glob
  | 'stale-marker'; // a staged change alters a file a completion marker covers

/** One thing the pre-commit hook found in the staged change. */
export interface HookFinding {
  kind: HookFindingKind;
  /** block: the commit is refused; warn: reported only; allowed: would block, but an override let it pass. */
  severity: 'block' | 'warn' | 'allowed';
  /** POSIX path relative to the work tree top. */
  path: string;
  line?: number;
  column?: number;
  message: string;
  /** How to fix it. */
  hint: string;
  /** For forbidden: the Forbidden entry as written in goals.md, and the glob that matched. */
  rule?: string;
  glob?: string;
  /** For stale-marker: the marker's id. */
  marker?: string;
  /** For a state warning worth reading once: its key (see Warning.once). */
  once?: string;
}

/** What a path under .agent/ is, for the pre-commit hook. */
export type StateFileKind =
  'config' | 'progress' | 'agent' | 'goals' | 'evidence' | 'local' | 'other';

/** Classifies a path relative to `.agent/` (for example `state/progress.yaml`). */
export function stateFileKind(inAgent: string): StateFileKind {
  if (inAgent === 'config.yaml') return 'config';
  if (inAgent === 'state/progress.yaml') return 'progress';
  if (/^state\/agents\/[^/]+\/progress\.yaml$/.test(inAgent)) return 'agent';
  if (inAgent === 'state/goals.md') return 'goals';
  if (/^state\/evidence\/[^/]+\.md$/.test(inAgent)) return 'evidence';
  if (/^(log|artifacts)\//.test(inAgent) || inAgent === 'lock' || inAgent.endsWith('.tmp'))
    return 'local';
  return 'other';
}

/** Staged paths that a Forbidden glob covers: blocking unless `allow` (the one-commit override). */
export function checkStagedForbidden(
  staged: readonly StagedChange[],
  forbidden: readonly ForbiddenEntry[],
  allow: boolean,
  nocase = false,
): HookFinding[] {
  if (!forbidden.some((entry) => entry.globs.length > 0)) return [];
  const match = compileForbidden(forbidden, { nocase });
  const findings: HookFinding[] = [];
  for (const change of staged) {
    const hit = match(change.path);
    if (!hit) continue;
    const verb = change.status === 'D' ? 'deletes' : 'changes';
    findings.push({
      kind: 'forbidden',
      severity: allow ? 'allowed' : 'block',
      path: change.path,
      message: `this commit ${verb} a Forbidden path (matches ${hit.glob})`,
      hint: allow
        ? `let through by ${ALLOW_FORBIDDEN_ENV}=1`
        : `unstage it (git restore --staged -- ${shellQuote(change.path)}), or if the change is intended, commit once with ${ALLOW_FORBIDDEN_ENV}=1`,
      rule: hit.rule,
      glob: hit.glob,
    });
  }
  return findings;
}

/** A staged goals.md dropping committed Forbidden globs: lifting a rule is the user's approval to give, not the agent's. */
export function checkLiftedRules(
  path: string,
  committed: readonly ForbiddenEntry[],
  staged: readonly ForbiddenEntry[],
  allow: boolean,
): HookFinding[] {
  const lifted = liftedGlobs(committed, staged);
  if (lifted.length === 0) return [];
  const rules = lifted.map((g) => `\`${g}\``).join(', ');
  return [
    {
      kind: 'forbidden',
      severity: allow ? 'allowed' : 'block',
      path,
      message: `this commit removes the Forbidden rule ${rules} from goals.md`,
      hint: allow
        ? `let through by ${ALLOW_FORBIDDEN_ENV}=1`
        : `if you mean to lift it, commit once with ${ALLOW_FORBIDDEN_ENV}=1; otherwise restore it (git restore --staged --worktree -- ${shellQuote(path)})`,
    },
  ];
}

/**
 * Whether `path` can be a key of progress.yaml's text: a cheap test that spares parsing YAML on
 * most commits. Paths YAML might escape (quotes, backslashes, control characters) always pass.
 */
export function mayBeCovered(progressText: string, path: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/["'\\\u0000-\u001f]/.test(path)) return true;
  return progressText.includes(path);
}

/** For each path, the ids of the markers whose `files` list it. */
export function markerCoverage(
  markers: Readonly<Record<string, Marker>>,
  paths: Iterable<string>,
): Map<string, string[]> {
  const wanted = new Set(paths);
  const coverage = new Map<string, string[]>();
  for (const [id, marker] of Object.entries(markers)) {
    for (const path of Object.keys(marker.files ?? {})) {
      if (wanted.has(path)) coverage.set(path, [...(coverage.get(path) ?? []), id]);
    }
  }
  return coverage;
}

/** Markers the commit makes stale: a covered file's staged hash differs (null: it is deleted). */
export function checkStagedMarkers(
  markers: Readonly<Record<string, Marker>>,
  coverage: ReadonlyMap<string, readonly string[]>,
  stagedHashes: ReadonlyMap<string, string | null>,
  mode: 'warn' | 'block',
): HookFinding[] {
  const findings: HookFinding[] = [];
  for (const [path, ids] of coverage) {
    const actual = stagedHashes.get(path);
    if (actual === undefined) continue;
    for (const id of ids) {
      const marker = markers[id];
      const recorded = marker?.files?.[path];
      // Only a content hash can be compared with the staged blob.
      if (!marker || !recorded?.startsWith('sha256:') || recorded === actual) continue;
      const change = actual === null ? 'deletes' : 'changes';
      findings.push({
        kind: 'stale-marker',
        severity: mode,
        path,
        marker: id,
        message: `this commit ${change} ${path}, which the completion marker of ${id} (done ${marker.at}) covers: the marker goes stale`,
        hint: `re-verify ${id}, then record its files again: \`agent-state done ${id} --refresh\` (${mode === 'block' ? 'or set hooks.stale_markers: warn in .agent/config.yaml' : 'hooks.stale_markers: block makes this refuse the commit'})`,
      });
    }
  }
  return findings;
}

/** True when no finding blocks the commit. */
export function passes(findings: readonly HookFinding[]): boolean {
  return !findings.some((f) => f.severity === 'block');
}
