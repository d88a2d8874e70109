// The real HookServices: the state store, the boot prompt, the event log and the status
// publisher, called in-process (never by spawning the CLI). Heavy modules load only in the calls
// that need them, so the hot path (PostToolUse, after every tool call) stays lean.
import type { HookServices } from './handle-event.js';
import { readHookConfig } from './hook-config.js';

/** Cuts text to at most `maxChars`, at a line boundary, saying how to get the rest. */
export function capContext(text: string, maxChars: number, rest: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut to ${maxChars} characters for the host: ${rest}]`;
  const room = Math.max(0, maxChars - marker.length);
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

export const hookServices: HookServices = {
  loadState: async (paths) => (await import('../../state/store.js')).loadState({ cwd: paths.root }),
  readConfig: readHookConfig,
  // TODO(issue 4): the boot prompt (library `boot`) lands with the boot issue.
  boot: async () => {
    throw new Error('the boot prompt is not available in this build yet (issue 4)');
  },
  // TODO(issue 5): the event log (`appendEvents`) lands with the events issue.
  record: async () => undefined,
  // TODO(issue 5): the status publisher (`publishStatusTo`) lands with the events issue.
  status: async () => '',
  // TODO(issue 3): the checkpoint's progress digest lands with the checkpoint issue.
  progressSinceCheckpoint: async ({ progress }) => ({
    changed: (progress.plan ?? []).some((p) => p.status !== 'pending'),
    key: String(progress.revision),
  }),
};
