// What Gemini CLI's chat recording says about a compression (what it means: recovery/compaction.ts).
// Gemini CLI fires PreCompress before every model call and only then checks its threshold
// (google-gemini/gemini-cli#18083), so the hook alone proves nothing. A compression replaces the
// history: the recording (`transcript_path`, JSON lines) gets a `{"$set":{"messages":[...]}}`
// record of the summary (a user turn, usually a `<state_snapshot>`) and GEMINI_COMPRESSION_ACK,
// stamped with the time they were made.
import { statSync } from 'node:fs';
import { obj } from '../host-hook-payload.js';
import { orElse, readSpan } from '../or-else.js';

/** The model's fixed reply after the summary, in Gemini CLI's compression (0.2x–0.6x). */
export const GEMINI_COMPRESSION_ACK = 'Got it. Thanks for the additional context!';

// Reading is bounded: a compression record follows the announcement within one model call.
const MAX_READ_BYTES = 32 * 1024 * 1024;

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => obj(part).text).filter((t): t is string => typeof t === 'string');
}

// A message made at or after `sinceMs` that is part of a compression.
function compressionMessage(message: unknown, sinceMs: number): boolean {
  const m = obj(message);
  if (typeof m.timestamp !== 'string' || Date.parse(m.timestamp) < sinceMs) return false;
  const parts = texts(m.content);
  if (m.type === 'gemini') return parts.some((t) => t.trim() === GEMINI_COMPRESSION_ACK);
  if (m.type === 'user') return parts.some((t) => t.trimStart().startsWith('<state_snapshot>'));
  return false;
}

/** Whether one line of the recording is a history replacement made by a compression since `sinceMs`. */
export function isCompressionRecord(line: string, sinceMs: number): boolean {
  if (!line.includes('$set') || !line.includes('"messages"')) return false;
  const messages = obj(obj(orElse(() => JSON.parse(line) as unknown, null)).$set).messages;
  return Array.isArray(messages) && messages.some((m) => compressionMessage(m, sinceMs));
}

/**
 * Whether the recording at `path` shows a compression at or after `since` (ISO), reading from
 * byte `offset` (its size when the compression was announced; from the start when it shrank, as
 * a rewrite does). A missing or unreadable file shows none.
 */
export function geminiCompressedSince(path: string, offset: number, since: string): boolean {
  // One second of slack: the recording and the hook payload stamp times separately.
  const sinceMs = Date.parse(since) - 1000;
  const span = readSpan(
    path,
    (size) => (offset >= 0 && offset <= size ? offset : 0),
    MAX_READ_BYTES,
  );
  if (span === null) return false;
  const { text, start } = span;
  // A whole-file JSON recording (older Gemini CLI) holds the messages in one object.
  if (start === 0 && text.trimStart().startsWith('{') && !text.includes('\n{')) {
    const whole = obj(orElse(() => JSON.parse(text) as unknown, null));
    if (Array.isArray(whole.messages))
      return (whole.messages as unknown[]).some((m) => compressionMessage(m, sinceMs));
  }
  return text.split('\n').some((line) => isCompressionRecord(line, sinceMs));
}

/** The size of the recording now (where a compression written later would start); 0 when none. */
export function transcriptSize(path: string): number {
  return orElse(() => statSync(path).size, 0);
}
