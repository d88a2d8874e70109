// The real bin and the in-process runCli the other e2e tests use answer alike: the same exit
// code, stdout and stderr for each route (commander, lean, a host hook reading stdin, a git hook,
// --help, --version) and each documented exit code, so what runCli shows holds for the bin too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitdir, runBin, runCli, testdir, writeFiles } from '../helpers/fixtures.js';

// A repository with a task and a plan item, and the calls to make in it:
// [directory, argv, stdin, expected exit code].
async function world(): Promise<{ repo: string; calls: [string, string[], string, number][] }> {
  const repo = gitdir({ 'src/a.js': 'export const a = 1;\n' });
  expect((await runCli(repo, ['init', '-q', '--goal', 'Agree'])).code).toBe(0);
  expect((await runCli(repo, ['plan', 'add', 'Write a', '--id', 't1', '-q'])).code).toBe(0);
  mkdirSync(join(repo, 'src', 'deep'));
  const hook = JSON.stringify({
    session_id: 's',
    cwd: repo,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: join(repo, 'README.md') },
    tool_response: {},
  });
  const outside = testdir();
  // Outside git the fingerprint walks the tree with globby, which the bundle loads on use.
  const plain = testdir({ 'notes.txt': 'x\n' });
  expect((await runCli(plain, ['init', '-q', '--goal', 'Plain'])).code).toBe(0);
  return {
    repo,
    calls: [
      [repo, ['status'], '', 0],
      [join(repo, 'src', 'deep'), ['--cwd', '..', 'plan', 'list', '--json'], '', 0],
      [repo, ['--agent', 'alice', 'next', 'Read a'], '', 0],
      [repo, ['statusline'], '{}', 0],
      [repo, ['hook', 'claude'], hook, 0],
      [repo, ['hook', 'pre-commit'], '', 0],
      [repo, ['event', '--stdin'], '{"type":"tool.finished","name":"grep"}', 0],
      [repo, ['--version'], '', 0],
      [repo, ['plan', '--help'], '', 0],
      [repo, ['check', 't1'], '', 1],
      [repo, ['stauts'], '', 2],
      [repo, ['next', '--json', '--stage'], '', 2],
      [repo, ['boot', '--level', '9'], '', 2],
      [plain, ['fingerprint', '--json'], '', 0],
      [outside, ['status'], '', 3],
      [outside, ['status', '--json'], '', 3],
    ],
  };
}

describe('the bin and runCli', () => {
  it('agree on the exit code, stdout and stderr of every route and exit code', async () => {
    // The same calls in two like repositories, one through each.
    const [a, b] = [await world(), await world()];
    for (const [i, [cwd, args, input, code]] of a.calls.entries()) {
      const bin = await runBin(cwd, args, { input });
      const [cwdB, argsB, inputB] = b.calls[i]!;
      const inProcess = await runCli(cwdB, argsB, { input: inputB });
      expect(bin.code, `${args.join(' ')}: ${bin.stderr}`).toBe(code);
      // Paths, times and the mtimes in digests differ between the two; nothing else may.
      const same = (text: string, repo: string) =>
        text
          .replaceAll(repo, 'REPO')
          .replace(/agent-state-test-\w+/g, 'TMP')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
          .replace(/sha256:\w{64}/g, 'SHA'); // the listing's digest covers mtimes
      const like = (r: typeof bin, repo: string) => ({
        code: r.code,
        stdout: same(r.stdout, repo),
        stderr: same(r.stderr, repo),
      });
      expect(like(inProcess, b.repo), args.join(' ')).toEqual(like(bin, a.repo));
    }
    // --agent reached the library in both: alice's own next action.
    for (const { repo } of [a, b])
      expect(
        readFileSync(join(repo, '.agent', 'state', 'agents', 'alice', 'progress.yaml'), 'utf8'),
      ).toContain('next_action: Read a');
  });

  it('agree on the AGENT_STATE_AGENT of the environment, for the CLI and a host hook', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q', '--goal', 'Agree'])).code).toBe(0);
    writeFiles(repo, { 'notes.txt': 'x\n' });
    for (const run of [runBin, runCli]) {
      const env = { AGENT_STATE_AGENT: run === runBin ? 'bin' : 'inproc' };
      expect((await run(repo, ['next', 'Mine'], { env })).code).toBe(0);
      const input = JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'PreCompact',
        trigger: 'auto',
      });
      expect((await run(repo, ['hook', 'claude'], { env, input })).code).toBe(0);
      const post = input.replace('PreCompact', 'PostCompact');
      expect((await run(repo, ['hook', 'claude'], { env, input: post })).code).toBe(0);
      const record = JSON.parse(
        readFileSync(join(repo, '.agent', 'log', `recovery.${env.AGENT_STATE_AGENT}.json`), 'utf8'),
      ) as { compactions: number };
      expect(record.compactions).toBe(1);
    }
  });

  it('reads the directory only when it needs it: an absolute --cwd works from a deleted one', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q', '--goal', 'Agree'])).code).toBe(0);
    const gone = join(testdir(), 'gone');
    mkdirSync(gone);
    // The shell's directory is removed before node starts in it.
    const inGone = (...args: string[]) =>
      spawnSync('sh', ['-c', `cd "$1" && rmdir "$1" && shift && exec "$@"`, 'sh', gone, ...args], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    const status = inGone(process.execPath, BIN, 'status');
    expect(status.status).toBe(70);
    expect(status.stderr).toMatch(/^agent-state: internal error: ENOENT: [^\n]*uv_cwd[^\n]*\n$/);
    mkdirSync(gone);
    const elsewhere = inGone(process.execPath, BIN, '--cwd', repo, 'goal');
    expect(elsewhere).toMatchObject({ status: 0, stdout: 'Agree\n' });
    expect(elsewhere.stderr).not.toContain('ENOENT');
  });
});

describe('the lean route on pipes', () => {
  // process.stdout and process.stdin on a pipe make a net.Socket each (the net module, its pipe
  // binding, a handle): a hook call that reads its payload and says nothing needs neither.
  it('loads no stream module for a host hook call or an event, on pipes or /dev/null', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q', '--goal', 'Lean'])).code).toBe(0);
    const probe = join(testdir(), 'modules.cjs');
    const list = `${probe}.txt`;
    writeFileSync(
      probe,
      `process.on('exit', () => require('fs').appendFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n') + '\\n'));\n`,
    );
    const hook = JSON.stringify({
      session_id: 's',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(repo, 'README.md') },
      tool_response: {},
    });
    // 'ignore': stdout is /dev/null, a character device that is no terminal (node:tty loads net).
    for (const stdout of ['pipe', 'ignore'] as const)
      for (const [args, input] of [
        [['hook', 'claude'], hook],
        [['event', 'tool.finished', '--field', 'name=grep', '-q'], ''],
      ] as const) {
        const run = spawnSync(process.execPath, ['-r', probe, BIN, ...args], {
          cwd: repo,
          input,
          encoding: 'utf8',
          stdio: ['pipe', stdout, 'pipe'],
        });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout ?? '').toBe('');
      }
    const loaded = readFileSync(list, 'utf8');
    expect(loaded).toContain('NativeModule vm'); // the probe saw the bundle load
    expect(loaded).not.toMatch(/NativeModule net$|Internal Binding pipe_wrap$/m);
  });

  // node:crypto is ~4 ms of a boot: the progress digest needs no sha256, and a changed file whose
  // stat has not moved since the last boot is in the hash cache.
  it('loads no node:crypto for a boot whose changed files the hash cache holds', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q', '--goal', 'Lean'])).code).toBe(0);
    const hourAgo = new Date(Date.now() - 3600_000);
    writeFileSync(join(repo, 'README.md'), '# changed\n');
    writeFileSync(join(repo, 'new.txt'), 'untracked\n');
    for (const file of ['README.md', 'new.txt']) utimesSync(join(repo, file), hourAgo, hourAgo);
    const probe = join(testdir(), 'modules.cjs');
    const list = `${probe}.txt`;
    writeFileSync(
      probe,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const boot = () =>
      spawnSync(process.execPath, ['-r', probe, BIN, 'boot', '--fast'], {
        cwd: repo,
        encoding: 'utf8',
      });
    expect(boot().status).toBe(0);
    expect(readFileSync(list, 'utf8')).toMatch(/^NativeModule crypto$/m); // the first boot hashes
    const again = boot();
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(list, 'utf8')).not.toMatch(/^NativeModule crypto$/m);
  });
});
