// A Forbidden zone holds whatever the names in it are made of: a newline, a CR, a tab, ESC in a
// file or a directory name. verify, checkpoint and the pre-commit hook agree on every such path,
// and print it on one line, its control characters made visible.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../helpers/fixtures.js';
import { stateRepo } from '../helpers/hooks.js';
import { CONTROL } from '../helpers/controls.js';

const NAMES = [
  'src/storage/new\nline.js',
  'src/storage/dir\nname/deep/f.js',
  'src/storage/cr\rx.js',
  'src/storage/tab\tx.js',
  'src/storage/esc\u001b[2Jx.js',
];

function writeNames(repo: string): void {
  for (const name of NAMES) {
    mkdirSync(join(repo, name, '..'), { recursive: true });
    writeFileSync(join(repo, name), 'x\n');
  }
}

// No raw newline, CR, tab or terminal control inside one printed line.
function expectOneLinePaths(text: string): void {
  for (const line of text.split('\n')) {
    expect(CONTROL.exec(line), JSON.stringify(line)).toBeNull();
    expect(line).not.toMatch(/[\r\t]/);
  }
  expect(text).not.toMatch(/^(line\.js|name\/deep|x\.js)/m);
}

describe('Forbidden paths with control characters in their names', () => {
  it('verify and checkpoint find every one and print each on one line', async () => {
    const repo = await stateRepo();
    expect((await runCli(repo, ['checkpoint'])).code).toBe(0);
    writeNames(repo);
    const verify = await runCli(repo, ['verify', '--json']);
    expect(verify.code).toBe(1);
    const report = JSON.parse(verify.stdout) as { forbidden: { path: string }[] };
    expect(report.forbidden.map((f) => f.path).sort()).toEqual([...NAMES].sort());

    const text = await runCli(repo, ['verify']);
    expect(text.code).toBe(1);
    expect(text.stdout).not.toContain('no change in a forbidden zone');
    expect(text.stdout).toContain('src/storage/new␊line.js (untracked) is in a forbidden zone');
    expect(text.stdout).toContain('src/storage/dir␊name/deep/f.js (untracked)');
    expectOneLinePaths(text.stdout);

    const checkpoint = await runCli(repo, ['checkpoint']);
    expect(checkpoint.code).toBe(1);
    expectOneLinePaths(checkpoint.stdout + checkpoint.stderr);
  });

  it('the pre-commit hook blocks every one and names it on one line', async () => {
    const repo = await stateRepo();
    writeNames(repo);
    git(repo, 'add', '-A');
    const json = await runCli(repo, ['hook', 'pre-commit', '--json']);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout) as { findings: { kind: string; path: string }[] };
    const blocked = result.findings.filter((f) => f.kind === 'forbidden').map((f) => f.path);
    expect(blocked.sort()).toEqual([...NAMES].sort());

    const hook = await runCli(repo, ['hook', 'pre-commit']);
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain('src/storage/new␊line.js: this commit changes a Forbidden path');
    expectOneLinePaths(hook.stderr);
  });
});
