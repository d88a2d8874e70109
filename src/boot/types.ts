// Types of the boot prompt: what the pure renderer takes (the state plus the live state) and gives
// back. The live facts are structural subsets of what the modules that gather them produce.
import type { StashedChange } from '../git/history.js';
import type { Drift } from '../fingerprint/diff.js';
import type { BootCount, DriftVerdict, StaleVerdict } from '../recovery/rules.js';
import type { EvidenceEntry } from '../evidence/evidence-file.js';
import type { AgentView } from '../task/agents-overview.js';
import type { Config, Goals, Progress, Reminder } from '../types.js';

/** 1 resume, 2 restore, 3 rebuild. */
export type BootLevel = 1 | 2 | 3;
export const BOOT_ROLES = ['execution', 'planning', 'review', 'recovery'] as const;
export const BOOT_FORMATS = ['markdown', 'xml', 'json'] as const;
/** Why the host is booting the agent (the SessionStart reasons of agent hosts). */
export const BOOT_SOURCES = ['startup', 'resume', 'compact', 'clear'] as const;
export type BootRole = (typeof BOOT_ROLES)[number];
export type BootFormat = (typeof BOOT_FORMATS)[number];
export type BootSource = (typeof BOOT_SOURCES)[number];
export const LEVEL_NAMES: Record<BootLevel, string> = { 1: 'resume', 2: 'restore', 3: 'rebuild' };

/** A completion marker judged against the files on disk now. */
export interface BootMarker {
  id: string;
  state: 'valid' | 'stale' | 'missing' | 'unverifiable';
  /** The files that no longer hash the same (for `stale`). */
  changed: { path: string; reason?: string }[];
  /** Why an `unverifiable` marker with files cannot be checked, and the fix. */
  problem?: { what: string; fix: string };
}

/** One evidence entry (front matter and body). */
export type BootEvidence = Pick<EvidenceEntry, 'id' | 'at' | 'kind' | 'summary' | 'body'>;

/** Another agent of the repository, as the boot shows it. */
export type BootAgent = Pick<
  AgentView,
  'agent' | 'worktree' | 'branch' | 'next_action' | 'current_step' | 'last_seen'
> & { claims: { item: string; expired: boolean }[] };

/** Who is booting, and the other active agents (empty for a single unnamed agent). */
export interface BootAgents {
  /** This agent's name; null for the default agent. */
  self: string | null;
  /** This agent's live claims (plan item ids). */
  claims: string[];
  /** The other active agents, most recently seen first. */
  others: BootAgent[];
}

/** What the recovery verdicts (src/recovery/rules.ts) say about this boot. */
export interface BootRecovery extends Pick<BootCount, 'stalled' | 'moved'> {
  /** The drift since the last checkpoint, own and foreign (before the first: the own edits only). */
  drift: DriftVerdict;
  /** The stale completion markers, each changed file judged own or foreign. */
  stale: StaleVerdict[];
  /** This boot's number in this worktree. */
  boots: number;
  /** Whether a checkpoint recorded a fingerprint to measure drift against. */
  measured: boolean;
}

/** Everything the boot prompt is made of: the state files plus the live state. */
export interface BootContext {
  goals: Goals;
  progress: Progress;
  config: Config;
  /** The evidence entries present, in any order (sorted by id when rendered). */
  evidence: BootEvidence[];
  /** Live marker states; empty when not checked (level 1). */
  markers: BootMarker[];
  /** Drift since the last checkpoint; null when unknown (no fingerprint recorded, or not measured). */
  drift: Drift | null;
  /** The reminders this boot shows (taken by a real boot, peeked by a dry run). */
  reminders: Reminder[];
  /** Several agents: who this is and the others (absent or null: a single agent, nothing shown). */
  agents?: BootAgents | null;
  /** The recovery verdicts; without them (a context built by hand), see contextRecovery. */
  recovery?: BootRecovery;
  /** Stash entries that hold changes to the state files (absent: none, or not looked at). */
  stashed?: StashedChange[];
  now: Date;
}

/** Counts tokens of a text. */
export interface TokenCounter {
  /** `o200k` (gpt-tokenizer) or `heuristic` (--fast). */
  readonly name: 'o200k' | 'heuristic';
  count(text: string): number;
  /** Counts add up across a "\n" not followed by whitespace or `/` (counted piece by piece). */
  readonly splitsAtLines?: boolean;
}

export interface RenderBootOptions {
  /** Default: config.boot.level. */
  level?: BootLevel | 'auto';
  /** The total budget in tokens; default config.budget.total. */
  budget?: number;
  /** Default markdown. */
  format?: BootFormat;
  /** Default execution. */
  role?: BootRole;
  source?: BootSource | null;
  counter: TokenCounter;
  /** True for a dry run (said in the JSON document; the text is the same). */
  dryRun?: boolean;
}

/** The layers budgets apply to. */
export type BootLayer = 'goals' | 'progress' | 'evidence' | 'other';

/** One section of the rendered prompt. */
export interface BootSection {
  key: string;
  title: string;
  layer: BootLayer;
  /** The section as rendered in Markdown (heading included). */
  text: string;
  /** Tokens of `text` (o200k or heuristic count × multiplier, rounded up). */
  tokens: number;
  /** Whether the section is never cut. */
  must_keep: boolean;
}

/** Each kind of omission as the header names it (one, several), in the order it names them. */
export const OMISSION_WORDS = {
  evidence_body: ['evidence body', 'evidence bodies'],
  evidence_headline: ['older evidence headline', 'older evidence headlines'],
  done_items: ['done plan item', 'done plan items'],
  working_memory: ['working note', 'working notes'],
  durable_memory: ['durable note', 'durable notes'],
  goals_section: ['goals.md section', 'goals.md sections'],
  non_goals: ['non-goal', 'non-goals'],
  success_criteria: ['success criterion', 'success criteria'],
  last_verification: ['last-verification line', 'last-verification lines'],
  plan_items: ['plan item', 'plan items'],
  drift_details: ['drift detail', 'drift details'],
  stale_markers: ['stale marker', 'stale markers'],
} as const;

/** Something left out of the prompt, and how to get it. */
export interface BootOmission {
  kind: keyof typeof OMISSION_WORDS;
  count: number;
  /** Ids of what was left out, when it has ids (evidence ids, plan ids, memory labels). */
  ids: string[];
  /** The command that shows it. */
  how: string;
}
