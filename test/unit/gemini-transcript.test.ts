// Reading Gemini CLI's chat recording for a compression, on the recording the real Gemini CLI
// 0.61.0 wrote (test/fixtures/gemini/README.md): the compression is found after the announcement
// that preceded it, and nothing else in the file (a resume's rewrite, an older compression, a
// whole-file recording) counts as one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  geminiCompressedSince,
  isCompressionRecord,
  transcriptSize,
} from '../../src/hosts/gemini/gemini-transcript.js';
import { testdir } from '../helpers/fixtures.js';

const FILE = join(import.meta.dirname, '..', 'fixtures', 'gemini', 'chat-compressed-0.61.0.jsonl');
const text = readFileSync(FILE, 'utf8');
const lines = text.split('\n');
const offsetOf = (line: number) =>
  Buffer.byteLength(lines.slice(0, line).join('\n')) + (line > 0 ? 1 : 0);

describe('the chat recording of Gemini CLI 0.61.0', () => {
  it('shows the compression written after its announcement', () => {
    // The PreCompress before the compression came at 13:29:35; the history was replaced at 35.680.
    expect(geminiCompressedSince(FILE, offsetOf(21), '2026-12-01T13:29:35.000Z')).toBe(true);
    expect(geminiCompressedSince(FILE, 0, '2026-12-01T13:29:35.000Z')).toBe(true);
    expect(isCompressionRecord(lines[21]!, Date.parse('2026-12-01T13:29:35.000Z'))).toBe(true);
  });

  it('shows none after it, nor before an announcement that came later', () => {
    expect(geminiCompressedSince(FILE, offsetOf(22), '2026-12-01T13:29:35.000Z')).toBe(false);
    expect(geminiCompressedSince(FILE, 0, '2026-12-01T13:29:37.000Z')).toBe(false);
  });

  it("does not take a resume's rewrite of the history for a compression", () => {
    // Line 14 rewrites the whole history with fresh timestamps when the session is resumed.
    const upToResume = join(testdir(), 'resumed.jsonl');
    writeFileSync(upToResume, `${lines.slice(0, 21).join('\n')}\n`);
    expect(isCompressionRecord(lines[14]!, 0)).toBe(false);
    expect(geminiCompressedSince(upToResume, offsetOf(11), '2026-12-01T13:29:20.000Z')).toBe(false);
  });

  it('reads from the start when the file shrank (a rewrite), and a missing file shows none', () => {
    expect(geminiCompressedSince(FILE, 10_000_000, '2026-12-01T13:29:35.000Z')).toBe(true);
    expect(
      geminiCompressedSince(join(testdir(), 'none.jsonl'), 0, '2026-12-01T13:29:35.000Z'),
    ).toBe(false);
    expect(transcriptSize(FILE)).toBe(Buffer.byteLength(text));
    expect(transcriptSize(join(testdir(), 'none.jsonl'))).toBe(0);
  });

  it('reads a whole-file JSON recording (older Gemini CLI) the same way', () => {
    const record = JSON.parse(lines[21]!) as { $set: { messages: unknown[] } };
    const whole = join(testdir(), 'legacy.json');
    writeFileSync(
      whole,
      JSON.stringify({ sessionId: 's', messages: record.$set.messages }, null, 2),
    );
    expect(geminiCompressedSince(whole, 0, '2026-12-01T13:29:35.000Z')).toBe(true);
    expect(geminiCompressedSince(whole, 0, '2026-12-01T13:29:40.000Z')).toBe(false);
  });
});
