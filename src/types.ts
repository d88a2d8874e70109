// Shared types of the .agent/ protocol v1. The JSON Schemas in schemas/ are the published
// contract; these types mirror them for TypeScript callers.

export type PlanStatus = 'pending' | 'running' | 'blocked' | 'done' | 'skipped' | 'failed';

export const PLAN_STATUSES: readonly PlanStatus[] = [
  'pending',
  'running',
  'blocked',
  'done',
  'skipped',
  'failed',
];

/** Which agent is working on a plan item, since when (docs/multi-agent.md). */
export interface Claim {
  agent: string;
  /** When the claim was made or last renewed (ISO 8601 UTC). */
  at: string;
}

export interface PlanItem {
  id: string;
  title: string;
  status: PlanStatus;
  /** Items that must be done (or skipped) before this one is ready (`plan ready`). */
  depends_on?: string[];
  note?: string;
  /** Where an imported item came from (`taskmaster#12`); `import` matches items by it. */
  source?: string;
  /** Set by `plan claim`: only this agent changes the status while the claim is live. */
  claim?: Claim;
}

export interface CurrentStep {
  id?: string;
  objective?: string;
  allowed_tools?: string[];
  denied_tools?: string[];
  file_scopes?: string[];
  constraints?: string[];
  expected_output?: string;
}

export interface TestResult {
  command?: string;
  exit_code?: number | null;
  passed?: number | null;
  failed?: number | null;
}

export interface Marker {
  at: string;
  /** POSIX path relative to the repository root → `sha256:<hex>`, for a marker over few files. */
  files?: Record<string, string>;
  /** A marker over many files: its list lives in state/markers/ (src/markers/marker-list.ts). */
  file_list?: { count: number; sha256: string };
  /** The globs the files were matched by (root-relative): what `done ID --refresh` matches again. */
  globs?: string[];
  tests?: TestResult;
  commit?: string | null;
  note?: string;
  /** The agent that marked the step done, when it had a name. */
  agent?: string;
}

export interface Reminder {
  text: string;
  at: string;
}

/** A value next_action had, and when it was set. */
export interface NextActionRecord {
  text: string;
  at: string;
}

/** The test run recorded by the last checkpoint. */
export interface LastTest extends TestResult {
  /** When the test command finished (ISO 8601 UTC). */
  at: string;
  duration_ms?: number;
  timed_out?: boolean;
}

export interface Stamp {
  boots?: number;
  checkpoints?: number;
  last_boot?: string | null;
  last_checkpoint?: string | null;
  recovery_level?: 1 | 2 | 3 | null;
  stalled_boots?: number;
  /** Context compactions an agent host announced (PreCompact), and when the last began. */
  compactions?: number;
  last_compaction?: string | null;
  /** The last few next actions, oldest first (kept by updateProgress; at most 5). */
  recent_next_actions?: NextActionRecord[];
  /** The last checkpoint's test run; null when it ran none. */
  last_test?: LastTest | null;
  /** `sha256:` of the progress that matters (stage, next action, plan statuses, markers) at the last checkpoint. */
  progress_digest?: string | null;
}

/**
 * What is known about one file in a fingerprint: `sha256:<hex>` of its content (of the link text
 * for a symlink), `deleted` (tracked but gone), `size:<bytes> mtime:<ISO>` (over
 * `fingerprint.max_hash_bytes`), `directory` (a nested repository) or `submodule:<flags>`.
 */
export type FileState = string;

/** Git facts of a fingerprint. */
export interface GitFingerprint {
  /** The commit HEAD points at; null before the first commit. */
  head: string | null;
  /** The checked-out branch; null when HEAD is detached. */
  branch: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
}

/** The environment recorded by a checkpoint (`progress.yaml` → `fingerprint`). */
export interface Fingerprint {
  /** When it was collected (ISO 8601 UTC). */
  at: string;
  /** agent-state 0.1.0 only: the checkout's absolute path (a machine path; no longer written). */
  root?: string;
  /** Null outside a git work tree. */
  git: GitFingerprint | null;
  /** Tracked files that differ from HEAD (staged or not), by root-relative POSIX path. */
  dirty: Record<string, FileState>;
  /** Untracked, not ignored files. */
  untracked: Record<string, FileState>;
  /** Dirty and untracked files beyond the per-file limit, summarized (null when none). */
  overflow: { files: number; digest: string } | null;
  /** Files matched by config `key_files`. */
  key_files: Record<string, FileState>;
  /** Forbidden paths a checkpoint accepted changes of, with what each held before (a revert restores it). */
  approved?: Record<string, FileState>;
  /** Outside git only: a digest of the tree listing (path, size, mtime). */
  listing: { files: number; digest: string; truncated: boolean } | null;
  runtime: { agent_state: string; node: string; platform: string };
}

/** The parsed content of `.agent/state/progress.yaml`. */
export interface Progress {
  version: 1;
  revision: number;
  /** Only in an agent's own file (and the view of a named agent): the agent's name. */
  agent?: string;
  /** Only in an agent's own file: when that agent last wrote the state. */
  last_seen?: string;
  stage?: string;
  next_action?: string;
  plan?: PlanItem[];
  current_step?: CurrentStep | null;
  markers?: Record<string, Marker>;
  memory?: { durable?: string[]; working?: string[] };
  reminders?: Reminder[];
  stamp?: Stamp;
  fingerprint?: Fingerprint | null;
}

/** `.agent/config.yaml` with every default filled in. */
export interface Config {
  version: 1;
  test: string | null;
  test_timeout: number;
  key_files: string[];
  evidence: { keep: number; max_bytes: number };
  /** Several agents on one task (docs/multi-agent.md). */
  agents: {
    /** A claim on a plan item expires this many minutes after it was made or renewed. */
    claim_expire_minutes: number;
  };
  fingerprint: { max_hash_bytes: number };
  budget: { total: number; goals: number; progress: number; evidence: number; multiplier: number };
  boot: { level: 1 | 2 | 3 | 'auto'; stall_threshold: number };
  /** How the agent host hooks act (docs/integrations.md). */
  integrations: {
    /** Writes to goals.md's Forbidden paths: refused (default), warned about, or not checked. */
    forbidden: 'enforce' | 'warn' | 'off';
    /** The current step's denied/allowed tools and file scopes. */
    pre_tool_use: 'warn' | 'enforce' | 'off';
    stop_checkpoint: 'off' | 'block';
    pre_compact: 'allow' | 'block';
    max_context_chars: number;
  };
  /** The git hooks (docs/hooks.md). */
  hooks: { stale_markers: 'warn' | 'block' };
  /** The event log (.agent/log/events.jsonl). */
  log: {
    /** Rotate the log once it is this many bytes. */
    rotate_bytes: number;
    /** Rotated generations kept (events.1.jsonl is the newest). */
    keep: number;
  };
  /** Thresholds of the status bar's control signals. */
  signals: {
    /** Calls in a row of one tool that found nothing new before "stop widening the search". */
    no_new_results: number;
    /** Failures in a row of one tool before "change approach". */
    consecutive_failures: number;
    /** Tool calls left at or below which "wrap up" shows. */
    tool_calls_left: number;
    /** Percent of the token budget left at or below which "wrap up" shows. */
    tokens_left_percent: number;
    /** Tool calls since the last checkpoint before "checkpoint now". */
    checkpoint_tool_calls: number;
    /** Minutes since the last checkpoint before "checkpoint now". */
    checkpoint_minutes: number;
  };
}

/** One Forbidden entry: its text and the path globs found in backticks. */
export interface ForbiddenEntry {
  text: string;
  globs: string[];
}

/** A goals.md section the tool does not know, kept verbatim. */
export interface ExtraSection {
  heading: string;
  body: string;
}

/** The parsed content of `.agent/state/goals.md`. */
export interface Goals {
  title: string;
  anchor: string;
  successCriteria: string[];
  constraints: string[];
  forbidden: ForbiddenEntry[];
  nonGoals: string[];
  extraSections: ExtraSection[];
}

/** A non-fatal finding about a state file. */
export interface Warning {
  file: string;
  line?: number;
  message: string;
  /**
   * Set on a warning worth reading once (an empty goals.md section): the CLI and the pre-commit
   * hook show a warning with this key once, and again only when the key changes (what the
   * warning says changed). Remembered in .agent/log/shown-warnings.json; `validate` lists it always.
   */
  once?: string;
}

/** Options every library entry point accepts. */
export interface BaseOptions {
  /** Working directory; the state root is found from here. Default `process.cwd()`. */
  cwd?: string;
  /** Clock, injectable for tests. Default `() => new Date()`. */
  now?: () => Date;
  /** Environment variables. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * The agent acting (docs/multi-agent.md). Default: env AGENT_STATE_AGENT; null (or no name at
   * all) is the default agent, whose own keys stay in progress.yaml as in a single-agent task.
   */
  agent?: string | null;
}
