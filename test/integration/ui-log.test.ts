// Reading the event log from its end for the page (real files): pages, filters, older pages,
// rotated logs, torn and corrupt lines, lines longer than the read window; and the follower,
// which reads only what was appended and never writes.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/events/append.js';
import { eventLogPaths } from '../../src/events/log-paths.js';
import { initState } from '../../src/state/init.js';
import { statePaths } from '../../src/state/paths.js';
import { LogFollower } from '../../src/ui/log-follower.js';
import { readEvents, readTimeline, scanBackward } from '../../src/events/read-log.js';
import { testdir } from '../helpers/fixtures.js';

function task() {
  const dir = testdir();
  initState({ cwd: dir, goal: 'Test the page' });
  const paths = statePaths(dir);
  const log = eventLogPaths(paths);
  mkdirSync(log.dir, { recursive: true });
  return { dir, paths, log };
}

// Writes events straight to the log (seq 1..count), as the appender would lay them out.
function writeLog(file: string, count: number, make: (seq: number) => Record<string, unknown>) {
  const lines: string[] = [];
  for (let seq = 1; seq <= count; seq++)
    lines.push(
      JSON.stringify({ seq, at: '2026-01-01T00:00:00.000Z', actor: 'tool', ...make(seq) }),
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
}

const kind = (seq: number) =>
  seq % 1000 === 0
    ? { type: 'boot', level: 2 }
    : seq % 100 === 0
      ? { type: 'checkpoint.created', summary: `cp ${seq}` }
      : { type: 'tool.finished', name: seq % 2 ? 'grep' : 'read' };

describe('readTimeline', () => {
  it('reads the newest events first, a page at a time, and says when older ones exist', () => {
    const { log } = task();
    writeLog(log.events, 5000, kind);
    const first = readTimeline(log, { limit: 50 });
    expect(first.events.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 5000 - i));
    expect(first.more).toBe(true);
    const older = readTimeline(log, { limit: 50, before: 4951 });
    expect(older.events[0]!.seq).toBe(4950);
    expect(older.events.at(-1)!.seq).toBe(4901);
    const last = readTimeline(log, { limit: 50, before: 30 });
    expect(last.events.map((e) => e.seq)).toEqual(Array.from({ length: 29 }, (_, i) => 29 - i));
    expect(last.more).toBe(false);
  });

  it('filters by exact type and by family, parsing only the lines that hold the type', () => {
    const { log } = task();
    writeLog(log.events, 5000, kind);
    const boots = readTimeline(log, { limit: 10, types: ['boot'] });
    expect(boots.events.map((e) => e.seq)).toEqual([5000, 4000, 3000, 2000, 1000]);
    expect(boots.more).toBe(false);
    const tools = readTimeline(log, { limit: 3, types: ['tool.*'] });
    expect(tools.events.map((e) => e.seq)).toEqual([4999, 4998, 4997]);
    const both = readTimeline(log, {
      limit: 4,
      types: ['boot', 'checkpoint.created'],
      before: 3001,
    });
    expect(both.events.map((e) => e.seq)).toEqual([3000, 2900, 2800, 2700]);
    // A type named only inside another field is not a match.
    appendFileSync(
      log.events,
      `${JSON.stringify({ seq: 5001, at: 'x', type: 'error', actor: 'tool', message: 'boot' })}\n`,
    );
    expect(readTimeline(log, { limit: 1, types: ['boot'] }).events[0]!.seq).toBe(5000);
  });

  it('agrees with the forward reader of `agent-state events` for every filter and page', () => {
    const { paths, log } = task();
    writeLog(log.events, 3000, kind);
    for (const types of [[], ['boot'], ['tool.*'], ['checkpoint.created', 'boot'], ['nothing']])
      for (const before of [undefined, 2999, 1500, 101, 1]) {
        const forward = readEvents(paths, { types })
          .events.filter((e) => before === undefined || e.seq < before)
          .reverse()
          .slice(0, 40);
        const page = readTimeline(log, { types, before, limit: 40 });
        expect(page.events, `${types.join(',')} before ${before}`).toEqual(forward);
      }
  });

  it('skips a torn last line and corrupt lines, and reads lines longer than its window', () => {
    const { log } = task();
    writeLog(log.events, 3, () => ({ type: 'note', text: 'x'.repeat(600_000) }));
    appendFileSync(
      log.events,
      'not json\n{"seq":4,"at":"x","type":"note","actor":"tool"}\n{"seq":5,',
    );
    const page = readTimeline(log, { limit: 10 });
    expect(page.events.map((e) => e.seq)).toEqual([4, 3, 2, 1]);
    expect((page.events[1]!.text as string).length).toBe(600_000);
  });

  it('continues into the rotated logs, newest first', async () => {
    const { dir, paths, log } = task();
    const config = join(dir, '.agent', 'config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(/rotate_bytes: \d+/, 'rotate_bytes: 4096'),
    );
    for (let i = 0; i < 12; i++)
      await appendEvents(
        Array.from({ length: 10 }, () => ({
          type: 'tool.finished',
          name: 'grep',
          pad: 'p'.repeat(60),
        })),
        { paths },
      );
    expect(existsSync(join(paths.logDir, 'events.1.jsonl'))).toBe(true);
    const seqs: number[] = [];
    scanBackward(log, {}, (e) => {
      seqs.push(e.seq);
      return true;
    });
    // Every seq once, in decreasing order, across the live log and the kept rotations.
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs[0]).toBeGreaterThan(120);
    expect(readTimeline(log, { limit: 5, types: ['log.rotated'] }).events.length).toBeGreaterThan(
      1,
    );
  });
});

describe('LogFollower', () => {
  it('finds the snapshot, the newest events, checkpoints and the last boot, then follows appends', async () => {
    const { paths, log } = task();
    writeLog(log.events, 5000, kind);
    const follower = new LogFollower(log, 20);
    const view = follower.refresh();
    expect(view.snapshot.seq).toBe(5000);
    expect(view.recent).toHaveLength(20);
    expect(view.recent[0]!.seq).toBe(5000);
    expect(view.lastBoot?.seq).toBe(5000);
    expect(view.checkpoints.map((e) => e.seq).slice(0, 3)).toEqual([4900, 4800, 4700]);
    expect(view.checkpoints).toHaveLength(20);

    await appendEvents(
      [
        { type: 'checkpoint.created', summary: 'new' },
        { type: 'tool.finished', name: 'edit', ok: false },
      ],
      { paths },
    );
    const next = follower.refresh();
    expect(next.recent.slice(0, 2).map((e) => e.seq)).toEqual([5002, 5001]);
    expect(next.recent).toHaveLength(20);
    expect(next.checkpoints[0]!.summary).toBe('new');
    expect(next.snapshot.seq).toBe(5002);
    expect(next.snapshot.tools.edit?.failures).toBe(1);
  });

  it('starts over when the log is replaced, and writes nothing (not even the status cache)', () => {
    const { log } = task();
    writeLog(log.events, 100, kind);
    const follower = new LogFollower(log);
    expect(follower.refresh().snapshot.seq).toBe(100);
    writeLog(log.events + '.new', 10, () => ({ type: 'boot', level: 1 }));
    writeFileSync(log.events, readFileSync(log.events + '.new'));
    // Same inode, shorter file: read again from the start.
    expect(statSync(log.events).size).toBeLessThan(10_000);
    const view = follower.refresh();
    expect(view.snapshot.seq).toBe(10);
    expect(view.lastBoot?.seq).toBe(10);
    expect(existsSync(log.status)).toBe(false);
  });

  it('has an empty view when there is no log yet', () => {
    const { log } = task();
    const view = new LogFollower(log).refresh();
    expect(view.recent).toEqual([]);
    expect(view.snapshot.seq).toBe(0);
    expect(view.lastBoot).toBeNull();
  });
});
