import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEvent, appendEvents } from '../../src/events/append.js';
import { offsetOfSeq, readEvents } from '../../src/events/read-log.js';
import { loadStatus } from '../../src/events/status-cache.js';
import type { AgentEvent } from '../../src/events/types.js';
import { initState } from '../../src/state/init.js';
import { statePaths } from '../../src/state/paths.js';
import { testdir } from '../helpers/fixtures.js';

function task(config?: Record<string, string | number>) {
  const dir = testdir();
  initState({ cwd: dir, goal: 'Test the event log' });
  if (config) {
    const file = join(dir, '.agent', 'config.yaml');
    let text = readFileSync(file, 'utf8');
    for (const [key, value] of Object.entries(config))
      text = text.replace(new RegExp(`(\\n\\s*${key}: ).*`), `$1${value}`);
    writeFileSync(file, text);
  }
  const paths = statePaths(dir);
  const log = (name = 'events.jsonl') => join(paths.logDir, name);
  const lines = (name?: string) =>
    readFileSync(log(name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AgentEvent);
  return { dir, paths, log, lines };
}

const grep = (newResults: number) => ({
  type: 'tool.finished',
  name: 'grep',
  new_results: newResults,
});

describe('the event log', () => {
  it('appends one line per event with increasing seqs, the common fields first', async () => {
    const { dir, lines, log } = task();
    await appendEvent(grep(2), { cwd: dir });
    await appendEvents(
      [grep(0), { type: 'cwd.changed', cwd: 'services/payment', actor: 'agent' }],
      {
        cwd: dir,
      },
    );
    expect(lines().map((e) => [e.seq, e.type, e.actor])).toEqual([
      [1, 'tool.finished', 'tool'],
      [2, 'tool.finished', 'tool'],
      [3, 'cwd.changed', 'agent'],
    ]);
    expect(readFileSync(log(), 'utf8').split('\n')[0]).toMatch(
      /^\{"seq":1,"at":"[^"]+","type":"tool.finished","actor":"tool","name":"grep","new_results":2\}$/,
    );
  });

  it('rejects an invalid event, naming the field, and leaves the log byte-identical', async () => {
    const { dir, log } = task();
    await appendEvent(grep(1), { cwd: dir });
    const before = readFileSync(log());
    await expect(
      appendEvents([grep(0), { type: 'tool.finished', name: 'grep', ok: 'yes' }], { cwd: dir }),
    ).rejects.toThrow(/field "ok" must be true or false \(got the string "yes"\)/);
    await expect(
      appendEvent({ type: 'verification.finished', passed: 3 }, { cwd: dir }),
    ).rejects.toThrow(/field "failed" is required/);
    await expect(appendEvent({ type: 'Tool Finished' }, { cwd: dir })).rejects.toThrow(
      /dotted lower-case/,
    );
    await expect(appendEvent({ type: 'boot', seq: 9 }, { cwd: dir })).rejects.toThrow(
      /may not set "seq"/,
    );
    await expect(appendEvent({ type: 'boot', at: 'yesterday' }, { cwd: dir })).rejects.toThrow(
      /field "at" must be an ISO 8601 date-time/,
    );
    expect(readFileSync(log())).toEqual(before);
  });

  it('keeps unknown types (forward compatible); the reducer ignores them', async () => {
    const { dir, paths } = task();
    await appendEvent({ type: 'deploy.finished', env: 'staging' }, { cwd: dir });
    expect(readEvents(paths).events[0]).toMatchObject({ type: 'deploy.finished', env: 'staging' });
    expect(loadStatus(paths).snapshot).toMatchObject({ seq: 1, events: 1, tool_calls: 0 });
  });

  it('skips a torn last line, and the next append starts on a fresh line', async () => {
    const { dir, paths, log } = task();
    await appendEvents([grep(2), grep(0)], { cwd: dir });
    appendFileSync(log(), '{"seq":3,"at":"2026-01-01T00:00:00Z","type":"tool.fin');
    const torn = loadStatus(paths);
    expect(torn.snapshot.tools.grep!.calls).toBe(2);
    expect(torn.warnings).toEqual([]);
    const next = await appendEvent(grep(0), { cwd: dir });
    expect(next.seq).toBe(3);
    const text = readFileSync(log(), 'utf8');
    expect(text.endsWith(`${JSON.stringify(next)}\n`)).toBe(true);
    const after = loadStatus(paths);
    expect(after.snapshot.tools.grep).toMatchObject({ calls: 3, no_new_results: 2 });
    expect(after.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/skipped a line that is not an event \(byte \d+, after seq 2\)/),
    ]);
  });

  it('brings the cached snapshot up to date by reading only the new lines', async () => {
    const { dir, paths } = task();
    await appendEvents(
      Array.from({ length: 50 }, () => grep(1)),
      { cwd: dir },
    );
    expect(loadStatus(paths)).toMatchObject({ rebuilt: true, folded: 50 });
    expect(loadStatus(paths)).toMatchObject({ rebuilt: false, folded: 0 });
    await appendEvent(grep(0), { cwd: dir });
    const status = loadStatus(paths);
    expect(status).toMatchObject({ rebuilt: false, folded: 1 });
    expect(status.snapshot.tools.grep!.calls).toBe(51);
  });

  it('rebuilds a corrupt cache from the log, with a warning, to the same snapshot', async () => {
    const { dir, paths } = task();
    await appendEvents([grep(3), grep(0), { type: 'boot' }], { cwd: dir });
    const good = loadStatus(paths).snapshot;
    writeFileSync(join(paths.logDir, 'status.json'), '{"version":1,"log":');
    const rebuilt = loadStatus(paths);
    expect(rebuilt.snapshot).toEqual(good);
    expect(rebuilt.warnings.map((w) => w.message)).toEqual([
      'the status cache was unusable (it is not valid JSON); rebuilt it from the log',
    ]);
    expect(loadStatus(paths).warnings).toEqual([]);
  });

  it('rotates past log.rotate_bytes, keeps log.keep generations, and loses no count', async () => {
    const { dir, paths, log, lines } = task({ rotate_bytes: 4096, keep: 2 });
    for (let i = 0; i < 12; i++)
      await appendEvents(
        Array.from({ length: 20 }, (_, j) => ({
          type: 'tool.finished',
          name: `tool${j % 3}`,
          note: 'x'.repeat(40),
        })),
        { cwd: dir },
      );
    expect(existsSync(log('events.1.jsonl'))).toBe(true);
    expect(existsSync(log('events.2.jsonl'))).toBe(true);
    expect(existsSync(log('events.3.jsonl'))).toBe(false);
    expect(statSync(log()).size).toBeLessThan(4096 + 4096);
    const first = lines()[0]!;
    expect(first).toMatchObject({
      type: 'log.rotated',
      actor: 'system',
      previous: 'events.1.jsonl',
    });
    expect(loadStatus(paths).snapshot.tool_calls).toBe(240);
    // The snapshot travels in the fresh log: without the cache, the current file alone suffices.
    rmSync(join(paths.logDir, 'status.json'));
    const rebuilt = loadStatus(paths);
    expect(rebuilt.snapshot.tool_calls).toBe(240);
    // Seqs go on across files.
    const all = readEvents(paths, { all: true }).events.map((e) => e.seq);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(new Set(all).size).toBe(all.length);
    expect(all.at(-1)).toBe(rebuilt.snapshot.seq);
  });

  it('filters events by seq, type (with a prefix) and count', async () => {
    const { dir, paths } = task();
    await appendEvents(
      [
        grep(1),
        { type: 'cwd.changed', cwd: 'a' },
        grep(0),
        { type: 'tool.started', name: 'bash' },
        grep(0),
      ],
      { cwd: dir },
    );
    const seqs = (q: Parameters<typeof readEvents>[1]) =>
      readEvents(paths, q).events.map((e) => e.seq);
    expect(seqs({ since: 2 })).toEqual([3, 4, 5]);
    expect(seqs({ types: ['tool.*'] })).toEqual([1, 3, 4, 5]);
    expect(seqs({ types: ['cwd.changed', 'tool.started'] })).toEqual([2, 4]);
    expect(seqs({ limit: 2 })).toEqual([4, 5]);
    expect(seqs({ since: 1, types: ['tool.finished'], limit: 1 })).toEqual([5]);
  });

  it('finds where --since starts in a large log without reading it all', () => {
    const { paths, log } = task();
    mkdirSync(paths.logDir, { recursive: true });
    const events: string[] = [];
    for (let seq = 1; seq <= 30_000; seq++)
      events.push(
        JSON.stringify({
          seq,
          at: '2026-01-01T00:00:00Z',
          type: 'tool.finished',
          actor: 'tool',
          name: 'read',
          pad: 'p'.repeat(40),
        }),
      );
    writeFileSync(log(), `${events.join('\n')}\n`);
    const offset = offsetOfSeq(log(), 29_991);
    expect(offset).toBeGreaterThan(1_000_000);
    expect(readEvents(paths, { since: 29_990 }).events.map((e) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => 29_991 + i),
    );
  });
});
