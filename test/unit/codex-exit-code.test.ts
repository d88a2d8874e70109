// Codex's exit codes: in the tool response when it has one, else in the session transcript.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  codexToolOk,
  responseExitCode,
  transcriptExitCode,
} from '../../src/hosts/codex/codex-exit-code.js';
import { testdir } from '../helpers/fixtures.js';

// Lines as Codex 0.171 writes them to its rollout (trimmed).
const completed = (id: string, code: number) =>
  JSON.stringify({
    timestamp: '2026-12-01T11:44:57.278Z',
    type: 'event_msg',
    payload: {
      type: 'item_completed',
      item: {
        type: 'CommandExecution',
        id,
        status: code ? 'failed' : 'completed',
        exit_code: code,
      },
    },
  });

describe('Codex exit codes', () => {
  it('reads `Exit code: N` (apply_patch) and object responses; a bare output string says nothing', () => {
    expect(responseExitCode('Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.')).toBe(0);
    expect(responseExitCode('Exit code: 1\nOutput:\nverification failed')).toBe(1);
    expect(responseExitCode({ exit_code: 2 })).toBe(2);
    expect(responseExitCode({ metadata: { exit_code: 0 } })).toBe(0);
    expect(responseExitCode('hi\n')).toBeNull();
    expect(responseExitCode('Output: Exit code: 3')).toBeNull();
  });

  it('finds the call in the transcript, the newest line first', () => {
    const dir = testdir();
    const file = join(dir, 'rollout.jsonl');
    const filler = JSON.stringify({ type: 'response_item', payload: { text: 'x'.repeat(1000) } });
    const lines = [
      completed('call_1', 0),
      ...Array.from({ length: 200 }, () => filler),
      completed('call_2', 3),
      JSON.stringify({
        type: 'event_msg',
        payload: { type: 'exec_command_end', call_id: 'call_3', exit_code: 4 },
      }),
      '{"torn',
    ];
    writeFileSync(file, lines.join('\n'));
    expect(transcriptExitCode(file, 'call_2')).toBe(3);
    expect(transcriptExitCode(file, 'call_3')).toBe(4);
    expect(transcriptExitCode(file, 'call_1')).toBe(0); // beyond the first 64 KiB read
    expect(transcriptExitCode(file, 'call_9')).toBeNull();
    expect(transcriptExitCode(join(dir, 'missing.jsonl'), 'call_2')).toBeNull();
    expect(codexToolOk('hi\n', 'call_2', file)).toBe(false);
    expect(codexToolOk('hi\n', 'call_1', file)).toBe(true);
    expect(codexToolOk('hi\n', 'call_9', file)).toBe(true);
    expect(codexToolOk('hi\n')).toBe(true);
  });
});
