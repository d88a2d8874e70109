// Where Codex puts a tool call's exit code. Its PostToolUse `tool_response` is the command's bare
// output string [0.171]: no exit code, no error field. An apply_patch response starts with
// `Exit code: N`; for a shell command the exit code is in the session's transcript
// (`transcript_path`, a JSONL rollout), on the event that completed the call
// (`item_completed` with a `CommandExecution` item whose id is the call id, or an older
// `exec_command_end` with its `call_id`).
import { obj } from '../host-hook-payload.js';
import { orElse, readSpan } from '../or-else.js';

/** The exit code in the response itself (an object with one, or `Exit code: N` text), or null. */
export function responseExitCode(response: unknown): number | null {
  if (typeof response === 'string') {
    const m = /^Exit code: (\d+)/.exec(response);
    return m ? Number(m[1]) : null;
  }
  const r = obj(response);
  for (const key of ['exit_code', 'exitCode', 'exit']) {
    const code = r[key] ?? obj(r.metadata)[key];
    if (typeof code === 'number') return code;
  }
  if (r.success === false || r.is_error === true || r.error) return 1;
  return null;
}

// The exit code on one transcript line, when the line completed the call `id`.
function lineExitCode(line: string, id: string): number | null {
  const payload = obj(obj(orElse(() => JSON.parse(line) as unknown, null)).payload);
  const item = obj(payload.item);
  if (item.id === id && typeof item.exit_code === 'number') return item.exit_code;
  if (payload.call_id === id && typeof payload.exit_code === 'number') return payload.exit_code;
  return null;
}

// How much of the transcript's end is read at most: the call just finished, so its line is near
// the end; reading all of a long session's rollout on every tool call would cost too much.
const TAIL_BYTES = [64 * 1024, 1024 * 1024];

/** The exit code the transcript records for call `id`, searching from the end; null if none. */
export function transcriptExitCode(path: string, id: string): number | null {
  for (const want of TAIL_BYTES) {
    const tail = readSpan(path, (size) => Math.max(0, size - want), want);
    if (tail === null) return null;
    const lines = tail.text.split('\n');
    if (tail.start > 0) lines.shift(); // a partial first line
    for (const line of lines.reverse()) {
      const code = line.includes(id) && line.includes('exit_code') ? lineExitCode(line, id) : null;
      if (code !== null) return code;
    }
    if (tail.start === 0) break;
  }
  return null;
}

/**
 * Whether a Codex tool call succeeded: from its response when that says, else from the
 * transcript; a call nothing says failed counts as a success.
 */
export function codexToolOk(
  response: unknown,
  toolUseId?: string,
  transcriptPath?: string,
): boolean {
  const code =
    responseExitCode(response) ??
    (toolUseId && transcriptPath ? transcriptExitCode(transcriptPath, toolUseId) : null);
  return code === null || code === 0;
}
