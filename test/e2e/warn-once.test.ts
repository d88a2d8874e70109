// The empty-section warning of goals.md is one line, shown once: again only when what it says
// changes (another set of sections is empty). `validate` always lists it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitdir, runCli } from '../helpers/fixtures.js';

const EMPTY = /empty sections/;

describe('the empty-section warning', () => {
  it('is one line, shown once by `goal`, and again once when the empty set changes', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    const first = await runCli(repo, ['goal']);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n').filter((l) => l !== '')).toEqual([
      'warning: .agent/state/goals.md:7: empty sections: "Success criteria" (line 7), "Constraints" (line 12), "Forbidden" (line 16), "Non-goals" (line 22): add a bullet to each, or delete the heading',
    ]);
    expect((await runCli(repo, ['goal'])).stderr).toBe('');
    git(repo, 'add', '-A');
    expect((await runCli(repo, ['hook', 'pre-commit'])).stderr).not.toMatch(EMPTY);
    // One section filled in: the warning says something new, once.
    const file = join(repo, '.agent', 'state', 'goals.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        '## Success criteria\n',
        '## Success criteria\n\n- `npm test` passes\n',
      ),
    );
    const changed = await runCli(repo, ['goal']);
    expect(changed.stderr).toMatch(/empty sections: "Constraints" \(line \d+\), "Forbidden"/);
    expect(changed.stderr).not.toMatch(/Success criteria/);
    expect((await runCli(repo, ['goal'])).stderr).toBe('');
    // validate lists it every time.
    for (let i = 0; i < 2; i++)
      expect((await runCli(repo, ['validate'])).stdout).toMatch(
        /warning +\.agent\/state\/goals\.md:\d+: empty sections/,
      );
  });

  it('is one note of the pre-commit hook, once', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    git(repo, 'add', '-A');
    const first = await runCli(repo, ['hook', 'pre-commit']);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n').filter((l) => EMPTY.test(l))).toHaveLength(1);
    expect(first.stderr).toMatch(/1 note/);
    const second = await runCli(repo, ['hook', 'pre-commit']);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(EMPTY);
  });
});
