// The commands of the checkpoint issue record their facts in the event log, and the status bar
// shows them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitdir, runCli } from '../helpers/fixtures.js';

describe('facts recorded by done, evidence add and checkpoint', () => {
  it('appends step.completed, evidence.added, verification.finished and checkpoint.created', async () => {
    const repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    expect((await runCli(repo, ['init', '--test', 'node -e "process.exit(0)"'])).code).toBe(0);
    expect((await runCli(repo, ['plan', 'add', 'Write a', '--id', 't1'])).code).toBe(0);
    expect((await runCli(repo, ['done', 't1', '--files', 'src/a.ts'])).code).toBe(0);
    expect(
      (await runCli(repo, ['evidence', 'add', '--kind', 'note', '--summary', 'Chose the map']))
        .code,
    ).toBe(0);
    const checkpoint = await runCli(repo, ['checkpoint', '-m', 'a works']);
    expect(checkpoint.code).toBe(0);
    expect(checkpoint.stderr).toBe('');

    const events = JSON.parse((await runCli(repo, ['events', '--json'])).stdout) as {
      events: { type: string; [k: string]: unknown }[];
    };
    const byType = Object.fromEntries(events.events.map((e) => [e.type, e]));
    expect(byType['step.completed']).toMatchObject({ step: 't1', title: 'Write a' });
    expect(byType['evidence.added']).toMatchObject({
      evidence: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{6}$/),
      kind: 'note',
      summary: 'Chose the map',
    });
    expect(byType['verification.finished']).toMatchObject({ exit_code: 0 });
    expect(byType['verification.finished']).not.toHaveProperty('passed');
    expect(byType['checkpoint.created']).toMatchObject({ summary: 'a works' });
    expect(byType['checkpoint.created']!.evidence).not.toBe(byType['evidence.added']!.evidence);

    const status = await runCli(repo, ['status', '--format', 'text']);
    expect(status.stdout).toMatch(/^Verification: passed \(exit code 0\)/m);
    expect(status.stdout).toMatch(/^Checkpoint: last just now .*: a works$/m);
  });

  it('records a failing test run even when the checkpoint is refused', async () => {
    const repo = gitdir({ 'src/a.ts': 'export {};\n' });
    writeFileSync(
      join(repo, 'fail.js'),
      'console.log("Tests  2 passed, 1 failed"); process.exit(1);\n',
    );
    expect((await runCli(repo, ['init', '--test', 'node fail.js'])).code).toBe(0);
    const checkpoint = await runCli(repo, ['checkpoint', '-m', 'nope']);
    expect(checkpoint.code).toBe(1);
    const events = JSON.parse((await runCli(repo, ['events', '--json'])).stdout) as {
      events: { type: string }[];
    };
    expect(events.events.map((e) => e.type)).toContain('verification.finished');
    expect(events.events.map((e) => e.type)).not.toContain('checkpoint.created');
  });

  it("status tells the last checkpoint's tests from a later run no checkpoint recorded", async () => {
    const repo = gitdir({ 'src/a.ts': 'export {};\n' });
    writeFileSync(
      join(repo, 'pass.js'),
      'console.log("      Tests  3 passed (3)"); process.exit(0);\n',
    );
    writeFileSync(
      join(repo, 'fail.js'),
      'console.log("      Tests  2 passed | 1 failed (3)"); process.exit(1);\n',
    );
    expect((await runCli(repo, ['init', '--test', 'node pass.js'])).code).toBe(0);
    expect((await runCli(repo, ['checkpoint', '-m', 'green'])).code).toBe(0);
    writeFileSync(
      join(repo, '.agent/config.yaml'),
      readFileSync(join(repo, '.agent/config.yaml'), 'utf8').replace(
        'node pass.js',
        'node fail.js',
      ),
    );
    expect((await runCli(repo, ['checkpoint', '-m', 'red'])).code).toBe(1);
    const lines = (await runCli(repo, ['status'])).stdout
      .split('\n')
      .filter((l) => l.startsWith('Tests'));
    expect(lines).toEqual([
      'Tests  3 passed, 0 failed (`node pass.js`) at the last checkpoint, just now',
      expect.stringMatching(
        /^Tests {2}2 passed, 1 failed \(`node fail\.js`, output .*\) since then, in a run no checkpoint recorded$/,
      ),
    ]);
  });

  it('status says a refused run was recorded by no checkpoint, also before the first one', async () => {
    const repo = gitdir({ 'src/a.ts': 'export {};\n' });
    writeFileSync(
      join(repo, 'fail.js'),
      'console.log("      Tests  2 passed | 1 failed (3)"); process.exit(1);\n',
    );
    expect((await runCli(repo, ['init', '--test', 'node fail.js'])).code).toBe(0);
    expect((await runCli(repo, ['checkpoint', '-m', 'red'])).code).toBe(1);
    const lines = (await runCli(repo, ['status'])).stdout
      .split('\n')
      .filter((l) => l.startsWith('Tests'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^Tests {2}2 passed, 1 failed \(`node fail\.js`, output .*\), in a run no checkpoint recorded$/,
      ),
    ]);
  });
});
