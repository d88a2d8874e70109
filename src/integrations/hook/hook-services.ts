// The real HookServices: the state store, the boot prompt, the event log and the status
// publisher, called in-process (never by spawning the CLI). Heavy modules (the tokenizer behind
// boot) load only in the calls that need them.
import { valueOrThrow } from '../../state/parsed-file.js';
import { loadState, readConfig } from '../../state/store.js';
import type { HookServices } from './handle-event.js';

/** Cuts text to at most `maxChars`, at a line boundary, saying how to get the rest. */
export function capContext(text: string, maxChars: number, rest: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut to ${maxChars} characters for the host: ${rest}]`;
  const room = Math.max(0, maxChars - marker.length);
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

export const hookServices: HookServices = {
  loadState: (paths) => loadState({ cwd: paths.root }),
  readConfig: (paths) => valueOrThrow(readConfig(paths)),
  // TODO(issue 4): the boot prompt (library `boot`) lands with the boot issue.
  boot: async () => {
    throw new Error('the boot prompt is not available in this build yet (issue 4)');
  },
  // TODO(issue 5): the event log (`recordEvent`) lands with the events issue.
  record: async () => undefined,
  // TODO(issue 5): status deltas (`publishStatus`) land with the events issue.
  statusDelta: async () => '',
  // TODO(issue 3): the checkpoint's progress digest lands with the checkpoint issue.
  progressSinceCheckpoint: (state) => ({
    changed: state.progress.stamp?.last_checkpoint == null,
    key: String(state.progress.revision),
  }),
};
