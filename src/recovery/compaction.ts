// When a compaction counts (pure). Hosts announce one (PreCompact, PreCompress, OpenCode's
// compacting hook) and often do not compact (Claude Code: "not enough messages"; Gemini CLI fires
// PreCompress before every model call). So an announcement is a note; a compaction is counted
// once, when the host confirms it (SessionStart `compact`, PostCompact, `session.compacted`, a
// compression in Gemini's chat recording). An unconfirmed note expires at the next user prompt.

/** "A compaction may follow": what a PreCompact / PreCompress left. */
export interface CompactionNote {
  host: string;
  session: string | null;
  /** When the first unconfirmed announcement of this run came (ISO 8601 UTC). */
  at: string;
  trigger: string;
  /** Gemini CLI: the chat recording, and its size at the announcement (a compression is written after it). */
  transcript?: { path: string; offset: number } | null;
}

/** A confirmed compaction whose boot prompt the agent has not been handed yet. */
export interface OwedBoot {
  host: string;
  session: string | null;
  at: string;
}

/** What confirmed a compaction. */
export type ConfirmedBy = 'session-start' | 'post-compact' | 'transcript';

/** A host's confirmation of a compaction. */
type Signal = OwedBoot & { by: ConfirmedBy };

/** The compaction part of the recovery record. */
export interface CompactionState {
  note: CompactionNote | null;
  owed: OwedBoot | null;
  /** The last confirmation, so that the second signal of one compaction does not count it again. */
  last: Signal | null;
}

export const NO_COMPACTION: CompactionState = { note: null, owed: null, last: null };

/** Two signals of one compaction (PostCompact, then SessionStart `compact`) arrive this close. */
export const SAME_COMPACTION_MS = 2 * 60 * 1000;

// Whether two signals come from one host session.
const sameRun = (a: OwedBoot | null, b: OwedBoot) =>
  a !== null && a.host === b.host && a.session === b.session;

/** Records that a compaction may follow; an unconfirmed note keeps its first time. */
export function noteCompaction(state: CompactionState, note: CompactionNote): CompactionState {
  const same = sameRun(state.note, note);
  return {
    ...state,
    note: same
      ? { ...note, at: state.note!.at, transcript: state.note!.transcript ?? note.transcript }
      : note,
  };
}

/** A host confirmed a compaction: count it (once) and owe its boot prompt. */
// `counted` is false for the second signal of one compaction; `note` is the note it confirmed, if
// there was one (its trigger is the compaction's).
export function confirmCompaction(state: CompactionState, signal: Signal) {
  const last = state.last;
  const second =
    sameRun(last, signal) &&
    last!.by !== signal.by &&
    Math.abs(Date.parse(signal.at) - Date.parse(last!.at)) < SAME_COMPACTION_MS;
  const note = sameRun(state.note, signal) ? state.note : null;
  const left = note ? null : state.note;
  if (second) return { state: { ...state, note: left }, counted: false, note };
  return {
    state: {
      note: left,
      owed: { host: signal.host, session: signal.session, at: signal.at },
      last: { ...signal },
    },
    counted: true,
    note,
  };
}

/** The owed boot prompt was handed over. */
export function bootDelivered(state: CompactionState): CompactionState {
  return { ...state, owed: null };
}

/** A user prompt: a note nobody confirmed is over (the host did not compact). */
export function expireNote(state: CompactionState): { state: CompactionState; expired: boolean } {
  if (state.note === null) return { state, expired: false };
  return { state: { ...state, note: null }, expired: true };
}

/** A new session (startup, resume, clear): its boot covers whatever an older one left behind. */
export function sessionStarted(state: CompactionState): CompactionState {
  return { ...state, note: null, owed: null };
}
