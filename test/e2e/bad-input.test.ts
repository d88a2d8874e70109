// Every bad input: exit 2, one line naming the file (and line) with the fix, file unchanged.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { git, gitdir, runCli } from '../helpers/fixtures.js';

const GOOD = `version: 1
revision: 4
stage: implementing
plan:
  - id: t1
    title: One
    status: pending
  - id: t2
    title: Two
    status: pending
`;

const CASES: { name: string; content: string | Buffer; where: RegExp }[] = [
  {
    name: 'a tab indentation error',
    content: GOOD.replace('  - id: t2', '\t- id: t2'),
    where: /progress\.yaml:8:\d+: .*(fix: indent with spaces)/,
  },
  {
    name: 'an unknown plan status',
    content: GOOD.replace('status: pending\n  - id: t2', 'status: finished\n  - id: t2'),
    where: /progress\.yaml:7:13: plan\[0\]\.status must be one of .*\(fix: use one of: pending/,
  },
  {
    name: 'plan given as a string',
    content: 'version: 1\nrevision: 0\nplan: write the parser\n',
    where: /progress\.yaml:3:7: plan must be a list .*\(fix: write plan as a list\)/,
  },
  {
    name: 'duplicate plan ids',
    content: GOOD.replace('id: t2', 'id: t1'),
    where:
      /progress\.yaml:8:\d+: plan id "t1" is used twice .*\(fix: give each plan item its own id\)/,
  },
  {
    name: 'an empty file',
    content: '',
    where: /progress\.yaml:1: .*is empty \(fix: restore it from git/,
  },
  {
    name: 'random binary bytes',
    content: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
    where: /progress\.yaml:\d+: .*not a text file .*\(fix: restore it from git/,
  },
  {
    name: 'a 5 MB file',
    content: `version: 1\nrevision: 0\nstage: "${'x'.repeat(5 * 1024 * 1024)}"\n`,
    where: /progress\.yaml: .*5\.0 MiB, over the 1 MiB limit .*\(fix: /,
  },
];

describe('bad progress.yaml input', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir();
    expect((await runCli(repo, ['init'])).code).toBe(0);
  });

  for (const { name, content, where } of CASES) {
    for (const args of [['status'], ['next', 'Do it'], ['plan', 'add', 'More'], ['validate']]) {
      it(`${name}: \`${args.join(' ')}\` exits 2 with one line and leaves the file byte-identical`, async () => {
        const file = join(repo, '.agent', 'state', 'progress.yaml');
        writeFileSync(file, content);
        const before = readFileSync(file);
        const result = await runCli(repo, args);
        expect(result.code).toBe(2);
        const errorLines = result.stderr.trim().split('\n');
        if (args[0] === 'validate') {
          expect(result.stdout).toMatch(where);
        } else {
          expect(errorLines).toHaveLength(1);
          expect(errorLines[0]).toMatch(/^agent-state: \.agent\/state\//);
          expect(errorLines[0]).toMatch(where);
        }
        expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
        expect(readFileSync(file).equals(before)).toBe(true);
      });
    }
  }

  it('a goals.md without an anchor is a warning, not an error', async () => {
    writeFileSync(join(repo, '.agent', 'state', 'progress.yaml'), GOOD);
    writeFileSync(
      join(repo, '.agent', 'state', 'goals.md'),
      '# Task\n\n## Constraints\n- keep it small\n',
    );
    const result = await runCli(repo, ['status']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: \.agent\/state\/goals\.md:1: no goal anchor/);
    const validate = await runCli(repo, ['validate']);
    expect(validate.code).toBe(0);
  });

  it('reports usage errors in one line with exit 2', async () => {
    const unknown = await runCli(repo, ['plan', 'start']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      "agent-state: missing required argument 'id' (fix: see `agent-state --help` or `agent-state <command> --help`)",
    );
    const badId = await runCli(repo, ['plan', 'add', 'X', '--id', '../evil']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/"\.\.\/evil" is not a valid id/);
  });

  it('suggests the command or option a typo meant', async () => {
    const command = await runCli(repo, ['stauts']);
    expect(command.code).toBe(2);
    expect(command.stderr.trim()).toBe(
      "agent-state: unknown command 'stauts' (fix: did you mean `status`? See `agent-state --help`)",
    );
    const sub = await runCli(repo, ['plan', 'ad', 'X']);
    expect(sub.code).toBe(2);
    expect(sub.stderr.trim()).toBe(
      "agent-state: unknown command 'ad' (fix: did you mean `add`? See `agent-state --help`)",
    );
    const option = await runCli(repo, ['status', '--jsno']);
    expect(option.code).toBe(2);
    expect(option.stderr.trim()).toBe(
      "agent-state: unknown option '--jsno' (fix: did you mean `--json`? See `agent-state --help`)",
    );
    // Nothing close: the usual hint.
    const far = await runCli(repo, ['zzzzzz']);
    expect(far.stderr.trim()).toBe(
      "agent-state: unknown command 'zzzzzz' (fix: see `agent-state --help` or `agent-state <command> --help`)",
    );
  });

  it('prints a JSON error document with --json', async () => {
    writeFileSync(
      join(repo, '.agent', 'state', 'progress.yaml'),
      'version: 1\nrevision: 0\nplan: nope\n',
    );
    const result = await runCli(repo, ['status', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: {
        code: 'INVALID',
        exit_code: 2,
        file: '.agent/state/progress.yaml',
        line: 3,
        column: 7,
      },
    });
  });
});

// An alias bomb: five levels of nine aliases each expand to 9^5 nodes (yaml refuses it in toJS).
const ALIAS_BOMB = [
  'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
].join('\n');

const FIX = /fix: +write the value out in full where `\*\w+` stands/;

const ALIAS_CASES: { name: string; file: string; content: string; where: RegExp }[] = [
  {
    name: 'an undefined alias in progress.yaml',
    file: '.agent/state/progress.yaml',
    content: GOOD.replace('stage: implementing', 'stage: *nope'),
    where: /progress\.yaml:3:8: .*alias `\*nope`/,
  },
  {
    name: 'a defined alias in progress.yaml',
    file: '.agent/state/progress.yaml',
    content: GOOD.replace('title: One', 'title: &t One').replace('title: Two', 'title: *t'),
    where: /progress\.yaml:9:12: .*alias `\*t`/,
  },
  {
    name: 'an alias bomb in config.yaml',
    file: '.agent/config.yaml',
    content: `version: 1\n${ALIAS_BOMB}\n`,
    where: /config\.yaml:3:\d+: .*alias `\*a`/,
  },
];

describe('YAML aliases in state files', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir();
    expect((await runCli(repo, ['init'])).code).toBe(0);
  });

  for (const { name, file, content, where } of ALIAS_CASES) {
    const commands = [
      ['status'],
      ['next', 'Do it'],
      ['plan', 'add', 'More'],
      ['boot'],
      ['verify'],
      ['checkpoint'],
      ['validate'],
    ];
    for (const args of commands) {
      it(`${name}: \`${args.join(' ')}\` exits 2 naming file:line and the fix, file unchanged`, async () => {
        const path = join(repo, file);
        const original = readFileSync(path);
        writeFileSync(path, content);
        try {
          const result = await runCli(repo, args);
          expect(result.code).toBe(2);
          expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
          expect(result.stdout + result.stderr).toMatch(where);
          expect(result.stdout + result.stderr).toMatch(FIX);
          expect(readFileSync(path, 'utf8')).toBe(content);
        } finally {
          writeFileSync(path, original);
        }
      });
    }
    it(`${name}: \`hook pre-commit\` blocks the commit with file:line, never exit 70`, async () => {
      const path = join(repo, file);
      const original = readFileSync(path);
      writeFileSync(path, content);
      try {
        git(repo, 'add', '-A');
        const result = await runCli(repo, ['hook', 'pre-commit']);
        expect(result.code).toBe(1);
        expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(result.stderr).toMatch(where);
        expect(result.stderr).toMatch(FIX);
        expect(readFileSync(path, 'utf8')).toBe(content);
      } finally {
        writeFileSync(path, original);
        git(repo, 'reset', '-q');
      }
    });
  }

  it('an alias in evidence front matter: `validate` and `hook pre-commit` name it, exit ≠ 70', async () => {
    const path = join(repo, '.agent', 'state', 'evidence', '000001-x.md');
    const content =
      '---\nid: "000001"\nat: &when 2024-01-01T00:00:00Z\nkind: note\nsummary: *when\n---\nbody\n';
    writeFileSync(path, content);
    try {
      const validate = await runCli(repo, ['validate']);
      expect(validate.code).toBe(2);
      expect(validate.stdout).toMatch(/000001-x\.md:5:10: .*alias `\*when`/);
      git(repo, 'add', '-A');
      const hook = await runCli(repo, ['hook', 'pre-commit']);
      expect(hook.code).toBe(1);
      expect(hook.stderr).toMatch(/000001-x\.md:5:10: .*alias `\*when`/);
      expect(readFileSync(path, 'utf8')).toBe(content);
    } finally {
      git(repo, 'reset', '-q');
      rmSync(path);
    }
  });
});
