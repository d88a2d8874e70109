import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, git, runCli, testdir } from '../helpers/fixtures.js';
import { loggedEvents, stateRepo } from '../helpers/hooks.js';

// Timing targets (ready ≤ 1 s, a report within 1 s) are measured in bench/watch.mjs; these
// timeouts are only generous upper bounds for a loaded CI machine.
const WAIT_MS = 10_000;

interface Watcher {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  /** Resolves with the first line (from `from` on) that satisfies `test`. */
  waitFor(test: (line: string) => boolean, from?: number): Promise<string>;
  exit: Promise<number | null>;
}

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

function startWatch(cwd: string, args: string[] = []): Watcher {
  const child = spawn(process.execPath, [BIN, 'watch', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  });
  running.push(child);
  const lines: string[] = [];
  const waiters: {
    test: (line: string) => boolean;
    from: number;
    resolve: (line: string) => void;
  }[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters])
        if (lines.length - 1 >= waiter.from && waiter.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    lines,
    exit,
    waitFor(test, from = 0) {
      const found = lines.slice(from).find(test);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
          WAIT_MS,
        );
        waiters.push({ test, from, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
  };
}

const json = (line: string) => JSON.parse(line) as Record<string, unknown>;
const isType = (type: string) => (line: string) => line.startsWith('{') && json(line).type === type;

describe('agent-state watch', () => {
  it('streams JSON: ready, a Forbidden edit with its rule, an invalid state file, a branch switch, then a summary', async () => {
    const repo = await stateRepo();
    const watch = startWatch(repo, ['--json']);
    const ready = json(await watch.waitFor(isType('ready')));
    expect(ready.paths).toEqual(['.agent', 'src/storage', '.git/HEAD', '.git/index']);

    appendFileSync(join(repo, 'src', 'storage', 'db.js'), '// edited\n');
    const forbidden = json(
      await watch.waitFor((l) => isType('change')(l) && json(l).kind === 'forbidden'),
    );
    expect(forbidden).toMatchObject({
      event: 'change',
      path: 'src/storage/db.js',
      glob: 'src/storage/**',
      rule: '`src/storage/**` — the storage layer is frozen (another team owns it)',
    });

    const progress = join(repo, '.agent', 'state', 'progress.yaml');
    const valid = readFileSync(progress, 'utf8');
    writeFileSync(progress, valid.replace('revision: 0', 'revision: -1'));
    const invalid = json(
      await watch.waitFor((l) => isType('change')(l) && json(l).kind === 'state'),
    );
    expect(invalid).toMatchObject({ path: '.agent/state/progress.yaml', valid: false });
    expect((invalid.problems as { at: string }[])[0]!.at).toMatch(
      /^\.agent\/state\/progress\.yaml:\d+:\d+$/,
    );

    git(repo, 'checkout', '-q', '-b', 'feature');
    const head = json(
      await watch.waitFor((l) => isType('change')(l) && json(l).path === '.git/HEAD'),
    );
    expect(head).toMatchObject({ kind: 'git', branch: 'feature' });

    watch.child.kill('SIGINT');
    const summary = json(await watch.waitFor(isType('summary')));
    expect(summary).toMatchObject({ forbidden: 1, invalid: 1 });
    expect(await watch.exit).toBe(0);
    // The Forbidden edit is a file.modified event: the status bar raises its Forbidden signal.
    expect(loggedEvents(repo, 'file.modified')).toEqual([
      expect.objectContaining({ path: 'src/storage/db.js', tool: 'watch', actor: 'system' }),
    ]);
    writeFileSync(progress, valid);
    const status = await runCli(repo, ['status', '--format', 'text']);
    expect(status.stdout).toContain('src/storage/db.js');
  });

  it('prints one human line per change, the Forbidden one with its rule', async () => {
    const repo = await stateRepo({ 'src/server.js': 'x\n' });
    const watch = startWatch(repo);
    await watch.waitFor((l) => l.startsWith('Watching .agent, src/storage'));
    appendFileSync(join(repo, 'src', 'server.js'), 'not watched\n');
    writeFileSync(join(repo, 'src', 'storage', 'new.js'), 'new\n');
    const line = await watch.waitFor((l) => l.includes('src/storage/new.js'));
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d added {3}src\/storage\/new\.js {2}Forbidden \(src\/storage\/\*\*\): `src\/storage\/\*\*` — the storage layer is frozen/,
    );
    watch.child.kill('SIGINT');
    expect(await watch.exit).toBe(0);
    expect(watch.lines.join('\n')).not.toContain('server.js');
    expect(watch.lines.at(-1)).toMatch(
      /^Stopped after \d+ s: 1 change \(1 Forbidden, 0 invalid, 0 git\)\.$/,
    );
  });

  it('reports a Forbidden file whose name (or directory) holds a newline, on one line', async () => {
    const repo = await stateRepo();
    const watch = startWatch(repo);
    await watch.waitFor((l) => l.startsWith('Watching .agent, src/storage'));
    mkdirSync(join(repo, 'src', 'storage', 'dir\nname'));
    writeFileSync(join(repo, 'src', 'storage', 'dir\nname', 'a\nb.js'), 'x\n');
    const line = await watch.waitFor((l) => l.includes('Forbidden'));
    expect(line).toMatch(
      / added {3}src\/storage\/dir␊name\/a␊b\.js {2}Forbidden \(src\/storage\/\*\*\)/,
    );
    watch.child.kill('SIGINT');
    expect(await watch.exit).toBe(0);
  });

  it('exits 3 without .agent/', async () => {
    const result = await runCli(testdir(), ['watch']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('run `agent-state init`');
  });
});
