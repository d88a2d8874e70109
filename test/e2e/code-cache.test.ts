// The CLI bundle loads through a V8 code cache: written on the first run, used afterwards, and a
// damaged cache is only a slower start, never a different result.
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runBin as runRealBin } from '../helpers/fixtures.js';

// A copy of the bundle of its own: the other test files' runs write the shared one's caches.
const SHARED = join(REPO_ROOT, 'dist', 'bundle');
const BUNDLE = mkdtempSync(join(REPO_ROOT, 'dist', 'bundle-cache-test-'));
const HOT = ['event', 'hook', 'boot'];
for (const file of [
  'start.cjs',
  'agent-state.cjs',
  ...HOT.map((word) => `agent-state-${word}.cjs`),
])
  copyFileSync(join(SHARED, file), join(BUNDLE, file));
afterAll(() => rmSync(BUNDLE, { recursive: true, force: true }));
const runBin = (cwd: string, args: string[]) =>
  runRealBin(cwd, args, { bin: join(BUNDLE, 'start.cjs') });

// One cache per command word: `<bundle>.<command>.<node version>.cache`; `event`, `hook` and `boot`
// run from their hot bundles (agent-state-<word>.cjs), everything else from agent-state.cjs.
const cacheName = (
  command: string,
  bundle = HOT.includes(command) ? `agent-state-${command}` : 'agent-state',
) => `${bundle}.cjs.${command}.${process.version}.cache`;
const cacheFiles = (command = 'status', bundle?: string) =>
  // This Node's only: a cache made by another Node version is never read (nor counted here).
  readdirSync(BUNDLE).filter((f) => f === cacheName(command, bundle));

describe('the code cache of the CLI bundle', () => {
  it('is written by a run and gives the same output as a compile from source', async () => {
    const repo = gitdir();
    expect((await runBin(repo, ['init', '-q', '--goal', 'Cache me'])).code).toBe(0);
    for (const file of cacheFiles()) rmSync(join(BUNDLE, file));
    const cold = await runBin(repo, ['status', '--json']);
    expect(cacheFiles()).toEqual([cacheName('status')]);
    const written = readFileSync(join(BUNDLE, cacheFiles()[0]!));
    expect(written.toString('latin1', 0, 18)).toBe('agent-state-cache ');
    const warm = await runBin(repo, ['status', '--json']);
    expect(warm).toEqual(cold);
    // The warm run used the cache: it did not write it again.
    expect(readFileSync(join(BUNDLE, cacheFiles()[0]!)).equals(written)).toBe(true);

    // A run of another kind adds the functions it compiled, once; the header lists the kinds.
    const cache = () => readFileSync(join(BUNDLE, cacheFiles()[0]!));
    // `agent-state-cache <file key> <kind>|<kind>...`, each kind a hash of its run shape.
    const kinds = () =>
      cache().toString('latin1', 0, cache().indexOf(0x0a)).trimEnd().split(' ')[2]!.split('|');
    expect(kinds()).toHaveLength(1);
    expect((await runBin(repo, ['status', '--format', 'xml'])).code).toBe(0);
    expect(kinds()).toHaveLength(2);
    const grown = cache();
    expect(grown.length).toBeGreaterThan(written.length);
    expect((await runBin(repo, ['status', '--format', 'xml'])).code).toBe(0);
    expect((await runBin(repo, ['status', '--json'])).code).toBe(0);
    expect(cache().equals(grown)).toBe(true);
    // Another command has a cache of its own (what `status` compiled would only slow it down).
    expect((await runBin(repo, ['validate', '--json'])).code).toBe(0);
    expect(cacheFiles('validate')).toEqual([cacheName('validate')]);
    expect(cache().equals(grown)).toBe(true);

    // A rewritten bundle (an upgrade, a rebuild; here the same bytes) is another file: V8 alone
    // would take a cache for any source of the same length, so the cache is made again.
    const bundle = join(BUNDLE, 'agent-state.cjs');
    const code = readFileSync(bundle);
    rmSync(bundle);
    writeFileSync(bundle, code);
    expect(await runBin(repo, ['status', '--json'])).toEqual(cold);
    expect(kinds()).toHaveLength(1);

    writeFileSync(join(BUNDLE, cacheFiles()[0]!), 'not a V8 code cache');
    const damaged = await runBin(repo, ['status', '--json']);
    expect(damaged).toEqual(cold);
    // The rejected cache was replaced by a good one.
    expect(readFileSync(join(BUNDLE, cacheFiles()[0]!), 'utf8')).not.toBe('not a V8 code cache');
  });

  it('keeps dynamic imports and library errors working when loaded from the cache', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    expect((await runBin(repo, ['init', '-q'])).code).toBe(0);
    expect((await runBin(repo, ['plan', 'add', 'A', '--id', 't1', '-q'])).code).toBe(0);
    expect((await runBin(repo, ['done', 't1', '--files', 'a.txt'])).code).toBe(0);
    expect((await runBin(repo, ['check', 't1'])).code).toBe(0);
    const missing = await runBin(repo, ['done', 't1', '--files', 'nope.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^agent-state: no file matches "nope\.txt"/);
  });

  it('serves the lean route (boot, event, git hooks) from the same bundle, a cache per command', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    expect((await runBin(repo, ['init', '-q', '--goal', 'Boot from the cache'])).code).toBe(0);
    const runs = [
      ['boot', '--level', '2', '--fast', '--dry-run', '--json'],
      ['event', 'note', '--field', 'text=hi', '--json'],
      ['hook', 'pre-commit'],
    ];
    for (const args of runs) {
      const command = args[0]!;
      for (const file of cacheFiles(command)) rmSync(join(BUNDLE, file));
      const cold = await runBin(repo, args);
      expect(cold.code, `${args.join(' ')}: ${cold.stderr}`).toBe(0);
      expect(cacheFiles(command)).toEqual([cacheName(command)]);
      const warm = await runBin(repo, args);
      expect(warm.code).toBe(0);
      // Times and the event's seq differ from run to run; everything else is the same.
      const stable = (text: string) =>
        text.replace(/"(seq|at|last_boot)": ("[^"]*"|\d+)/g, '"$1": _');
      expect(stable(warm.stdout)).toBe(stable(cold.stdout));
      expect(warm.stderr).toBe(cold.stderr);
    }
    // Nothing else in dist/bundle/ but the loader, the bundles and their caches.
    expect(readdirSync(SHARED).filter((f) => !f.endsWith('.cache'))).toEqual([
      'agent-state-boot.cjs',
      'agent-state-event.cjs',
      'agent-state-hook.cjs',
      'agent-state.cjs',
      'start.cjs',
    ]);
  });

  it('sends `event --help` to the whole CLI, and a hot call finds the validators it lacks', async () => {
    const repo = gitdir({ 'a.txt': 'a\n' });
    expect((await runBin(repo, ['init', '-q', '--goal', 'Route the hot calls'])).code).toBe(0);
    for (const file of readdirSync(BUNDLE).filter((f) => f.endsWith('.cache')))
      rmSync(join(BUNDLE, file));
    const help = await runBin(repo, ['event', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agent-state event/);
    expect(cacheFiles('event', 'agent-state')).toEqual([cacheName('event', 'agent-state')]);
    expect(cacheFiles('event')).toEqual([]);
    // A log past rotate_bytes: the hot bundle reads config.yaml (no cache of it yet) with the
    // validator on disk, and rotates at 4 KiB instead of the default 10 MiB.
    writeFileSync(join(repo, '.agent', 'config.yaml'), 'version: 1\nlog:\n  rotate_bytes: 4096\n');
    for (let i = 0; i < 3; i++) {
      const event = await runBin(repo, ['event', 'note', '--field', `text=${'x'.repeat(2000)}`]);
      expect(event.code, event.stderr).toBe(0);
    }
    expect(cacheFiles('event')).toEqual([cacheName('event')]);
    expect(readdirSync(join(repo, '.agent', 'log'))).toContain('events.1.jsonl');
    // A hand-edited progress.yaml (no cache of this text): `boot` validates it from disk too.
    appendFileSync(join(repo, '.agent', 'state', 'progress.yaml'), '# edited by hand\n');
    const booted = await runBin(repo, ['boot', '--fast', '--dry-run']);
    expect(booted.code, booted.stderr).toBe(0);
    expect(booted.stdout).toContain('Route the hot calls');
    expect(cacheFiles('boot')).toEqual([cacheName('boot')]);
  });
});
