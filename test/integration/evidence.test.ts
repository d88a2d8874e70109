// The evidence folder on a real temp repository: the newest evidence.keep entries stay, in
// order; secrets never reach the disk (entry or artifact); bodies are capped.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEvidence } from '../../src/evidence/add-evidence.js';
import { listEvidence, readEvidence } from '../../src/evidence/evidence-folder.js';
import { initState } from '../../src/state/init.js';
import { gitdir, runCli, testdir } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

function allFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out;
}

describe('addEvidence', () => {
  it('keeps exactly the newest 10 of 15 entries, in order, with ids that cannot collide', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const ids: string[] = [];
    for (let i = 1; i <= 15; i++) {
      const at = new Date(Date.UTC(2026, 10, 30, 14, 0, i));
      const result = await addEvidence(
        { kind: 'note', summary: `Entry number ${i}` },
        { cwd: repo, now: () => at },
      );
      expect(result.meta.id).toMatch(
        new RegExp(`^20261130T1400${String(i).padStart(2, '0')}000Z-[0-9a-f]{6}$`),
      );
      ids.push(result.meta.id);
      expect(result.removed).toHaveLength(i > 10 ? 1 : 0);
    }
    const names = readdirSync(join(repo, '.agent/state/evidence')).sort();
    expect(names).toEqual(
      Array.from({ length: 10 }, (_, k) => `${ids[k + 5]}-entry-number-${k + 6}.md`),
    );
    const { entries, problems } = listEvidence({ cwd: repo });
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.summary)).toEqual(
      Array.from({ length: 10 }, (_, k) => `Entry number ${k + 6}`),
    );
    // By the whole id, or by its six random hex digits alone (easy to type).
    expect(readEvidence(ids[14]!, { cwd: repo }).summary).toBe('Entry number 15');
    expect(readEvidence(ids[14]!.slice(-6), { cwd: repo }).summary).toBe('Entry number 15');
    expect(() => readEvidence(ids[2]!, { cwd: repo })).toThrow(/no evidence entry/);
  });

  it('sorts the entries of 0.1.0 (six-digit sequence ids) before the new ones, and reads both', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const old = (n: number) =>
      `---\nid: "${String(n).padStart(6, '0')}"\nat: "2026-11-01T00:00:0${n}.000Z"\nkind: note\nsummary: "old ${n}"\nredactions: 0\n---\nbody\n`;
    for (const n of [1, 2])
      writeFileSync(join(repo, `.agent/state/evidence/00000${n}-old-${n}.md`), old(n));
    const added = await addEvidence({ kind: 'note', summary: 'new one' }, { cwd: repo });
    expect(listEvidence({ cwd: repo }).entries.map((e) => e.summary)).toEqual([
      'old 1',
      'old 2',
      'new one',
    ]);
    expect(readEvidence('2', { cwd: repo }).summary).toBe('old 2');
    expect(readEvidence(added.meta.id, { cwd: repo }).summary).toBe('new one');
  });

  it('redacts every secret kind in the entry and in the raw artifact before writing', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const text = Object.values(SECRETS).join('\nsome log line\n') + '\n';
    const raw = join(testdir({ 'test.log': text }), 'test.log');
    const result = await addEvidence(
      {
        kind: 'test',
        summary: `Leaked ${SECRETS.github_token} in a summary`,
        body: text,
        rawFile: raw,
        allowOutside: true,
      },
      { cwd: repo },
    );
    const kinds = Object.keys(SECRETS).length;
    expect(result.redactions).toBeGreaterThanOrEqual(2 * kinds + 1);
    const written = allFiles(join(repo, '.agent')).filter(
      (f) => f.startsWith('state/evidence/') || f.startsWith('artifacts/'),
    );
    expect(written.some((f) => f.startsWith('artifacts/'))).toBe(true);
    for (const file of written) {
      const content = readFileSync(join(repo, '.agent', file), 'utf8');
      for (const [kind, secret] of Object.entries(SECRETS))
        expect(content, `${kind} in ${file}`).not.toContain(sensitivePart(kind, secret));
    }
    const entry = readEvidence(result.meta.id, { cwd: repo });
    expect(entry.summary).toBe('Leaked [REDACTED:github_token] in a summary');
    const ref = entry.refs![0]!;
    expect(ref.path).toMatch(/^\.agent\/artifacts\/\d{8}T\d{6}Z-[0-9a-f]{6}-test\.log$/);
    expect(ref.bytes).toBe(readFileSync(join(repo, ref.path)).length);
  });

  it('caps the body at evidence.max_bytes with a note', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    writeFileSync(join(repo, '.agent/config.yaml'), 'version: 1\nevidence:\n  max_bytes: 300\n');
    const result = await addEvidence(
      { kind: 'diff', summary: 'Big diff', body: 'x'.repeat(1000) },
      { cwd: repo },
    );
    expect(result.truncated_bytes).toBe(700);
    const entry = readEvidence(result.meta.id, { cwd: repo });
    expect(entry.truncated_bytes).toBe(700);
    expect(entry.body).toContain('[truncated 700 bytes]');
  });

  it('removes the artifacts of pruned entries', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    writeFileSync(join(repo, '.agent/config.yaml'), 'version: 1\nevidence:\n  keep: 1\n');
    const raw = join(testdir({ 'a.log': 'first\n' }), 'a.log');
    const first = await addEvidence(
      { kind: 'test', summary: 'First', rawFile: raw, allowOutside: true },
      { cwd: repo },
    );
    const artifact = join(repo, first.meta.refs![0]!.path);
    expect(existsSync(artifact)).toBe(true);
    await addEvidence({ kind: 'note', summary: 'Second' }, { cwd: repo });
    expect(existsSync(artifact)).toBe(false);
  });

  it('refuses a bad kind, an empty summary and a missing raw file, writing nothing', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    await expect(addEvidence({ kind: 'Bad Kind', summary: 's' }, { cwd: repo })).rejects.toThrow(
      /not a valid evidence kind/,
    );
    await expect(addEvidence({ kind: 'note', summary: '  ' }, { cwd: repo })).rejects.toThrow(
      /summary is empty/,
    );
    await expect(
      addEvidence({ kind: 'note', summary: 's', rawFile: join(repo, 'nope.log') }, { cwd: repo }),
    ).rejects.toThrow(/no such file/);
    expect(readdirSync(join(repo, '.agent/state/evidence'))).toEqual([]);
  });
});

describe('evidence add on the command line', () => {
  it('--raw copies the file into .agent/artifacts/ and references it by sha256', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const log = 'PASS test/a.test.ts\nTests: 4 passed, 4 total\nnon-ASCII: héllo ✓\n';
    writeFileSync(join(repo, 'test.log'), log);
    const result = await runCli(repo, [
      'evidence',
      'add',
      '--kind',
      'test',
      '--summary',
      'All 4 tests pass',
      '--raw',
      'test.log',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const added = JSON.parse(result.stdout) as { id: string; refs: { path: string }[] };
    const artifacts = readdirSync(join(repo, '.agent/artifacts'));
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}-test\.log$/);
    const copy = readFileSync(join(repo, '.agent/artifacts', artifacts[0]!));
    expect(copy.toString('utf8')).toBe(log);
    const sha256 = `sha256:${createHash('sha256').update(log).digest('hex')}`;
    const entry = readEvidence(added.id, { cwd: repo });
    expect(entry).toMatchObject({ kind: 'test', summary: 'All 4 tests pass' });
    expect(entry.refs).toEqual([
      {
        path: `.agent/artifacts/${artifacts[0]}`,
        sha256,
        bytes: Buffer.byteLength(log),
      },
    ]);
    expect(added.refs).toEqual(entry.refs);
    // The entry file on disk names the artifact and its hash.
    const text = readFileSync(join(repo, entry.file), 'utf8');
    expect(text).toContain(`.agent/artifacts/${artifacts[0]}`);
    expect(text).toContain(sha256);
  });

  it('--body-file uses the file content as the body', async () => {
    const repo = gitdir();
    initState({ cwd: repo });
    const body =
      '## Decision\n\nKeep the v1 token format: clients pin it.\n\n- checked 3 clients\n';
    writeFileSync(join(repo, 'notes.md'), body);
    const result = await runCli(repo, [
      'evidence',
      'add',
      '--kind',
      'decision',
      '--summary',
      'Keep the v1 token format',
      '--body-file',
      'notes.md',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const { id } = JSON.parse(result.stdout) as { id: string };
    const entry = readEvidence(id, { cwd: repo });
    expect(entry.kind).toBe('decision');
    expect(entry.body).toBe(body);
    expect(entry.refs).toBeUndefined();
    const missing = await runCli(repo, [
      'evidence',
      'add',
      '--kind',
      'note',
      '--summary',
      's',
      '--body-file',
      'nope.md',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--body-file nope\.md: no such file/);
  });
});
