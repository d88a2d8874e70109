// A symlink committed into .agent/ (or made there by an agent) must not carry a write, a delete
// or a served file out of the repository: a linked state folder is refused with exit 2, naming
// the link and the fix; what is deleted or served is checked by its real path.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitdir, runCli, testdir, writeFiles } from '../helpers/fixtures.js';
import { startUi } from '../helpers/ui-server.js';

async function initialized(): Promise<string> {
  const repo = gitdir({ 'src/a.js': 'a\n' });
  expect((await runCli(repo, ['init'])).code).toBe(0);
  return repo;
}

function outsideDir(): { dir: string; victim: string } {
  const dir = testdir({ 'victim.txt': 'outside\n' });
  return { dir, victim: join(dir, 'victim.txt') };
}

// Exit 2, the link named, the fix given, nothing new outside.
function expectRefused(
  result: { code: number | null; stderr: string },
  link: string,
  outside: string,
): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(`${link}: is a symbolic link`);
  expect(result.stderr).toMatch(/fix: .*real (directory|folder|file)/);
  expect(readdirSync(outside)).toEqual(['victim.txt']);
  expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('outside\n');
}

describe('symlinks in .agent/', () => {
  it('refuses a committed .agent/state/evidence link: evidence add neither writes nor prunes through it', async () => {
    const repo = await initialized();
    const { dir } = outsideDir();
    writeFiles(repo, { '.agent/config.yaml': 'version: 1\nevidence:\n  keep: 1\n' });
    rmSync(join(repo, '.agent/state/evidence'), { recursive: true, force: true });
    symlinkSync(dir, join(repo, '.agent/state/evidence'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'link');
    const add = await runCli(repo, ['evidence', 'add', '--kind', 'note', '--summary', 'x']);
    expectRefused(add, '.agent/state/evidence', dir);
    expectRefused(await runCli(repo, ['status']), '.agent/state/evidence', dir);
  });

  it('refuses a committed .agent link: init creates nothing in its target', async () => {
    const { dir } = outsideDir();
    const repo = gitdir({ 'src/a.js': 'a\n' });
    symlinkSync(dir, join(repo, '.agent'));
    expectRefused(await runCli(repo, ['init']), '.agent', dir);
    const sub = join(repo, 'src');
    expectRefused(await runCli(sub, ['next', 'x']), '.agent', dir);
  });

  it('refuses a linked log file and a linked folder in the log: nothing is appended outside', async () => {
    const repo = await initialized();
    const { dir, victim } = outsideDir();
    mkdirSync(join(repo, '.agent/log'), { recursive: true });
    rmSync(join(repo, '.agent/log/events.jsonl'), { force: true });
    symlinkSync(victim, join(repo, '.agent/log/events.jsonl'));
    expectRefused(await runCli(repo, ['event', 'note']), '.agent/log/events.jsonl', dir);
  });

  it('never deletes through a link inside .agent/artifacts/ when it prunes evidence', async () => {
    const repo = await initialized();
    const { dir, victim } = outsideDir();
    writeFiles(repo, {
      '.agent/config.yaml': 'version: 1\nevidence:\n  keep: 1\n',
      '.agent/state/evidence/000001-old.md':
        '---\nid: "000001"\nat: 2026-01-01T00:00:00.000Z\nkind: note\nsummary: old\nrefs:\n  - path: .agent/artifacts/out/victim.txt\n    sha256: sha256:0000000000000000000000000000000000000000000000000000000000000000\n---\n',
    });
    mkdirSync(join(repo, '.agent/artifacts'), { recursive: true });
    symlinkSync(dir, join(repo, '.agent/artifacts/out'));
    const add = await runCli(repo, ['evidence', 'add', '--kind', 'note', '--summary', 'new']);
    expect(add.code, add.stderr).toBe(0);
    expect(existsSync(join(repo, '.agent/state/evidence/000001-old.md'))).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('outside\n');
  });

  it('the ui never serves a file through a linked artifacts folder, even one linked after it started', async () => {
    const repo = await initialized();
    const { dir } = outsideDir();
    writeFileSync(join(dir, 'secret.txt'), 'outside secret\n');
    const ui = await startUi(repo);
    try {
      rmSync(join(repo, '.agent/artifacts'), { recursive: true, force: true });
      symlinkSync(dir, join(repo, '.agent/artifacts'));
      const response = await fetch(
        `${ui.base}artifact?token=${ui.token}&path=${encodeURIComponent('.agent/artifacts/secret.txt')}`,
      );
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('outside secret');
    } finally {
      await ui.stop();
    }
  });

  it('integrate refuses to write through a linked host folder of the repository', async () => {
    const repo = await initialized();
    const { dir } = outsideDir();
    symlinkSync(dir, join(repo, '.opencode'));
    expectRefused(await runCli(repo, ['integrate', 'opencode']), '.opencode', dir);
  });
});
