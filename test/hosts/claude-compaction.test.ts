// Claude Code's compactions that do not happen, inside the real host (issue 11): `/compact` with
// too little to compact fires PreCompact and then answers "Not enough messages to compact". That
// is only a note: no compaction is counted, no boot is owed, and the next prompt gets none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude } from './harness/hosts/claude.js';
import { allText } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

const user = (text: string) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;

const STREAM = [
  '-p',
  '--input-format',
  'stream-json',
  '--output-format',
  'stream-json',
  '--verbose',
  '--dangerously-skip-permissions',
];

describe('Claude Code: a /compact that does not compact', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(claude);
  });
  afterAll(() => s?.close());

  it('PreCompact leaves only a note; the next prompt drops it: nothing counted, no boot, never "compacted"', async () => {
    const recovery = () =>
      JSON.parse(readFileSync(join(s.repo.dir, '.agent', 'log', 'recovery.json'), 'utf8')) as {
        compactions: number;
        compaction: { note: { host: string; trigger: string } | null; owed: unknown };
      };
    const first = await s.run('', [{ text: 'Hello.' }], {
      rawArgs: STREAM,
      stdin: user('/compact'),
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Not enough messages to compact');
    // PreCompact did run (the note), and counted nothing.
    expect(recovery().compaction.note).toMatchObject({ host: 'claude', trigger: 'manual' });
    expect(recovery()).toMatchObject({ compactions: 0, compaction: { owed: null } });
    const before = s.repo.events().length;
    const second = await s.run('', [{ text: 'Hello again.' }], {
      rawArgs: STREAM,
      stdin: user('Continue'),
    });
    expect(second.code, second.stderr).toBe(0);
    expect(recovery()).toMatchObject({ compactions: 0, compaction: { note: null, owed: null } });
    const events = s.repo.events();
    expect(events.filter((e) => e.type === 'compaction')).toEqual([]);
    expect(events.slice(before).filter((e) => e.type === 'boot')).toMatchObject([
      { source: 'startup' },
    ]);
    expect(s.stub.turns().length).toBeGreaterThan(0);
    for (const turn of s.stub.turns())
      expect(allText(turn.body)).not.toContain('Your context was just compacted');
  });
});
