// The compaction state as host hooks change it (recovery/compaction.ts decides what it means):
// a note that one may follow, its confirmation by the host or its transcript, counted once and
// recorded in the log.
import {
  confirmCompaction,
  expireNote,
  noteCompaction,
  type CompactionState,
  type ConfirmedBy,
} from '../recovery/compaction.js';
import {
  peekCompaction,
  updateCompaction,
  type CompactionChange,
} from '../recovery/record-store.js';
import { recordFacts as record, type HookCall } from './host-hook-context.js';

const nowIso = () => new Date().toISOString();

// Changes of the compaction state are best effort: a busy or broken record costs the count (said
// in a note on stderr), never the boot prompt the agent is owed.
export async function compaction<T>(
  call: HookCall,
  change: (state: CompactionState) => CompactionChange<T>,
): Promise<T> {
  try {
    return await updateCompaction(call.repo.paths, change, call.env);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    call.notes.push(`the compaction state was not updated: ${why}`);
    return change(peekCompaction(call.repo.paths, call.env)).result;
  }
}

// A change of the compaction state that returns nothing.
export const setCompaction = (
  call: HookCall,
  change: (state: CompactionState) => CompactionState,
) => compaction(call, (state) => ({ state: change(state), result: null }));

// A host confirmed a compaction (or its transcript shows one): counted once, recorded in the log
// (a new status epoch), and the boot prompt owed.
export async function confirm(
  call: HookCall,
  by: ConfirmedBy,
  session = call.event.sessionId ?? null,
) {
  const { event } = call;
  const at = event.at ?? nowIso();
  const outcome = await compaction(call, (state) => {
    const c = confirmCompaction(state, { host: event.host, session, at, by });
    return { state: c.state, counted: c.counted ? { at } : null, result: c };
  });
  if (outcome.counted)
    await record({ paths: call.repo.paths }, [
      {
        type: 'compaction',
        actor: 'system',
        trigger: outcome.note?.trigger ?? event.trigger ?? 'auto',
        host: event.host,
        confirmed_by: by,
      },
    ]);
  return outcome;
}

// A host without a hook after a compaction (Gemini CLI): its transcript says one happened.
export async function confirmFromTranscript(call: HookCall): Promise<void> {
  const note = peekCompaction(call.repo.paths, call.env).note;
  if (!note?.transcript || note.host !== call.event.host || !call.host.transcript) return;
  if (call.host.transcript.shows(note)) await confirm(call, 'transcript', note.session);
}

// What a pre-compact hook (or, for transcript hosts, a model call to come) announces.
export function compactionNote(call: HookCall, trigger: string) {
  const { event, host } = call;
  return {
    host: event.host,
    session: event.sessionId ?? null,
    at: event.at ?? nowIso(),
    trigger,
    transcript:
      host.transcript && event.transcriptPath
        ? { path: event.transcriptPath, offset: host.transcript.offset(event.transcriptPath) }
        : null,
  };
}

// A compaction may follow now. Hosts that prove one by their transcript (Gemini CLI) run a model
// call, which may compress, after every prompt and tool call: the note is taken then (their
// pre-compact hook fires only for a manual one). `fresh`: a prompt, where an older note is over.
export async function announce(call: HookCall, fresh: boolean): Promise<void> {
  const { event } = call;
  if (!call.host.transcript || !event.transcriptPath) return;
  const pending = peekCompaction(call.repo.paths, call.env).note;
  if (!fresh && pending?.host === event.host && pending.session === (event.sessionId ?? null))
    return;
  const note = compactionNote(call, 'auto');
  await setCompaction(call, (st) => noteCompaction(fresh ? expireNote(st).state : st, note));
}
