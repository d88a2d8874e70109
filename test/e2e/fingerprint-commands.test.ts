// The issue-3 commands end to end: the CLI in real temp repositories — exit codes, stdout,
// stderr, --json shapes, Ctrl-C during a checkpoint.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, git, gitdir, runCli } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

async function project(test?: string): Promise<string> {
  const repo = gitdir({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'package.json': '{}\n' });
  const init = await runCli(repo, ['init', '--goal', 'Ship it', ...(test ? ['--test', test] : [])]);
  expect(init.code).toBe(0);
  expect((await runCli(repo, ['plan', 'add', 'Write the sources', '--id', 't1'])).code).toBe(0);
  return repo;
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('done, check, undone', () => {
  it('valid → stale naming the file → done again → valid, with exit codes 0 / 1 / 0', async () => {
    const repo = await project();
    const done = await runCli(repo, ['done', 't1', '--files', 'src/**', '--json']);
    expect(done.code).toBe(0);
    expect(json(done.stdout)).toMatchObject({
      id: 't1',
      replaced: false,
      item: { status: 'done' },
    });

    let check = await runCli(repo, ['check', 't1', '--json']);
    expect(check.code).toBe(0);
    expect(json(check.stdout)).toEqual({
      ok: true,
      markers: [
        { id: 't1', state: 'valid', changed: [], status: 'done', at: expect.any(String), files: 2 },
      ],
    });

    writeFileSync(join(repo, 'src/b.ts'), 'changed\n');
    check = await runCli(repo, ['check', 't1']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/STALE\s+t1\s+src\/b\.ts changed/);

    expect((await runCli(repo, ['done', 't1', '--files', 'src/**'])).stdout).toMatch(
      /replaced the previous marker/,
    );
    expect((await runCli(repo, ['check', 't1'])).code).toBe(0);
    expect((await runCli(repo, ['check', 't1', 'nope'])).code).toBe(1);

    const undone = await runCli(repo, ['undone', 't1', '--json']);
    expect(json(undone.stdout)).toMatchObject({ removed: true, item: { status: 'pending' } });
    expect((await runCli(repo, ['check', 't1'])).stdout).toMatch(/missing/);
  });

  it('a glob matching nothing or a path outside the repository is a usage error (exit 2)', async () => {
    const repo = await project();
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const none = await runCli(repo, ['done', 't1', '--files', 'nothing/**']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no file matches "nothing\/\*\*"/);
    const outside = await runCli(join(repo, 'src'), ['done', 't1', '--files', '../../etc/passwd']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/outside the repository/);
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(before);
  });
});

describe('evidence', () => {
  it('adds from stdin, redacts, lists newest 10 of 15 in order, shows one', async () => {
    const repo = await project();
    const secret = await runCli(
      repo,
      ['evidence', 'add', '--kind', 'test', '--summary', 'Secrets', '--body', '-', '--json'],
      {
        input: Object.values(SECRETS).join('\n'),
      },
    );
    expect(secret.code).toBe(0);
    const added = json(secret.stdout);
    expect(added.redactions).toBeGreaterThanOrEqual(Object.keys(SECRETS).length);
    const text = readFileSync(join(repo, added.file as string), 'utf8');
    for (const [kind, value] of Object.entries(SECRETS))
      expect(text).not.toContain(sensitivePart(kind, value));

    const ids = [added.id as string];
    for (let i = 2; i <= 15; i++) {
      const result = await runCli(repo, [
        'evidence',
        'add',
        '--kind',
        'note',
        '--summary',
        `Note ${i}`,
        '--json',
      ]);
      expect(result.code).toBe(0);
      ids.push(json(result.stdout).id as string);
    }
    const list = json((await runCli(repo, ['evidence', 'list', '--json'])).stdout) as {
      entries: { id: string; summary: string }[];
    };
    expect(list.entries.map((e) => e.id)).toEqual(ids.slice(5));
    expect(list.entries.map((e) => e.summary)).toEqual(
      Array.from({ length: 10 }, (_, k) => `Note ${k + 6}`),
    );
    // By the whole id or its six random hex digits; a pruned one is gone.
    for (const id of [ids[14]!, ids[14]!.slice(-6)]) {
      const show = await runCli(repo, ['evidence', 'show', id]);
      expect(show.code).toBe(0);
      expect(show.stdout.startsWith(`${ids[14]} note: Note 15`)).toBe(true);
    }
    expect((await runCli(repo, ['evidence', 'show', ids[0]!])).code).toBe(2);
    expect((await runCli(repo, ['evidence', 'add', '--summary', 'no kind'])).code).toBe(2);
  });
});

describe('verify and checkpoint', () => {
  it('checkpoint refuses failing tests (exit 1, nothing written); records passing ones; fingerprint --json matches', async () => {
    const repo = await project('node -e "process.exit(1)"');
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const refused = await runCli(repo, ['checkpoint', '-m', 'Try']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /Checkpoint refused: the tests failed \(exit 1\)\. Nothing was written\./,
    );
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(before);
    expect(readdirSync(join(repo, '.agent/state/evidence'))).toEqual([]);

    const passed = await runCli(repo, ['checkpoint', '--no-test', '--json']);
    expect(passed.code).toBe(0);
    expect(json(passed.stdout)).toMatchObject({
      ok: true,
      refused: null,
      checkpoint: 1,
      test: null,
    });
    const fresh = json((await runCli(repo, ['fingerprint', '--json'])).stdout);
    const progress = parse(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')) as {
      fingerprint: Record<string, unknown>;
    };
    expect({ ...progress.fingerprint, at: '' }).toEqual({ ...fresh, at: '' });
    // The committed file holds no machine path (the checkout's place differs per clone).
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).not.toContain(repo);
    const verify = await runCli(repo, ['verify', '--json']);
    expect(verify.code).toBe(0);
    expect(json(verify.stdout)).toMatchObject({ ok: true, findings: [], problems: [] });
  });

  it('verify exits 1 with the commits listed, and 2 for an invalid file', async () => {
    const repo = await project();
    expect((await runCli(repo, ['checkpoint', '--commit', '-q'])).code).toBe(0);
    expect((await runCli(repo, ['verify'])).code).toBe(0);
    for (let i = 1; i <= 3; i++) {
      writeFileSync(join(repo, 'src/a.ts'), `${i}\n`);
      git(repo, 'commit', '-qam', `Commit ${i}`);
    }
    const drift = await runCli(repo, ['verify']);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/HEAD moved since the checkpoint \(3 new commits/);
    expect(drift.stdout).toMatch(
      /: [0-9a-f]{7} Commit 3, [0-9a-f]{7} Commit 2, [0-9a-f]{7} Commit 1\)\n/,
    );
    expect(drift.stdout).toMatch(/fix: review the change/);

    writeFileSync(join(repo, '.agent/state/progress.yaml'), 'version: 1\nrevision: oops\n');
    const invalid = await runCli(repo, ['verify']);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toMatch(/\.agent\/state\/progress\.yaml:2:\d+: /);
  });

  it('Ctrl-C during the tests kills the test process tree, writes nothing, exits 130', async () => {
    const repo = await project(`sh -c 'sleep 30 & echo $! > grandchild.pid; wait'`);
    const before = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const child = spawn(process.execPath, [BIN, 'checkpoint'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const pidFile = join(repo, 'grandchild.pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '')
      await new Promise((r) => setTimeout(r, 20));
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/cancelled/);
    await new Promise((r) => setTimeout(r, 200));
    let alive = true;
    try {
      process.kill(grandchild, 0);
      alive = !/ Z /.test(readFileSync(`/proc/${grandchild}/stat`, 'utf8'));
    } catch {
      alive = false;
    }
    expect(alive).toBe(false);
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(before);
  });

  it('every new command has help with an example and exits 3 before init', async () => {
    const repo = gitdir();
    for (const command of [
      ['fingerprint'],
      ['done'],
      ['check'],
      ['undone'],
      ['evidence', 'add'],
      ['verify'],
      ['checkpoint'],
    ]) {
      const help = await runCli(repo, [...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Examples?:\n\s+\$ agent-state /);
    }
    const result = await runCli(repo, ['verify']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/agent-state init/);
  });
});
