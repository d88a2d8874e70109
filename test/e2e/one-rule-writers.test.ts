// One rule for all writers: while goals.md or config.yaml is invalid, no command writes
// progress.yaml (or any other state file); each stops with exit 2 naming the bad file, as
// `status`, `boot` and `verify` do.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitdir, runCli } from '../helpers/fixtures.js';

const BAD: { name: string; file: string; content: string | Buffer; where: RegExp }[] = [
  {
    name: 'goals.md is not text',
    file: '.agent/state/goals.md',
    content: Buffer.from('# Task\n\nShip it.\n\u0000\u0001\u0002 binary\n'),
    where: /^agent-state: \.agent\/state\/goals\.md:\d+: not a text file/m,
  },
  {
    name: 'config.yaml breaks its schema',
    file: '.agent/config.yaml',
    content: 'version: 1\nbudget: lots\n',
    where: /^agent-state: \.agent\/config\.yaml:2:9: budget must be/m,
  },
  {
    name: 'config.yaml has a YAML syntax error',
    file: '.agent/config.yaml',
    content: 'version: 1\ntest: "npm test\n',
    where: /^agent-state: \.agent\/config\.yaml:\d+:\d+: YAML syntax/m,
  },
];

const WRITERS = [
  ['next', 'Run the migration', '--stage', 'implementing'],
  ['plan', 'add', 'Another step', '--id', 't1'],
  ['plan', 'start', 't1'],
  ['plan', 'block', 't1', '--note', 'waiting'],
  ['done', 't2'],
  ['undone', 't3'],
  ['memory', 'add', 'a fact'],
  ['remind', 'look at the log'],
  ['current', '--objective', 'write it'],
  ['goal', 'A new anchor'],
  ['evidence', 'add', '--kind', 'note', '--summary', 'a note'],
  ['checkpoint'],
];

function snapshot(repo: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'log') walk(path);
      } else if (entry.name !== 'lock') {
        files[path] = readFileSync(join(repo, path)).toString('base64');
      }
    }
  };
  walk('.agent');
  return files;
}

describe('one rule for all writers', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir();
    for (const args of [
      ['init', '--goal', 'Ship the parser'],
      ['plan', 'add', 'One', '--id', 't1'],
      ['plan', 'add', 'Two', '--id', 't2'],
      ['plan', 'add', 'Three', '--id', 't3'],
      ['done', 't3'],
    ]) {
      const result = await runCli(repo, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
  });

  for (const { name, file, content, where } of BAD) {
    for (const args of WRITERS) {
      it(`${name}: \`${args.join(' ')}\` exits 2 naming the file and writes nothing`, async () => {
        const path = join(repo, file);
        const original = readFileSync(path);
        writeFileSync(path, content);
        try {
          const before = snapshot(repo);
          const result = await runCli(repo, args);
          expect(result.code, result.stderr).toBe(2);
          expect(result.stderr).toMatch(where);
          expect(result.stderr).toMatch(/\(fix: /);
          expect(snapshot(repo)).toEqual(before);
        } finally {
          writeFileSync(path, original);
        }
      });
    }
  }

  it('the same commands work once the file is good again', async () => {
    const result = await runCli(repo, ['next', 'Run the migration']);
    expect(result.code, result.stderr).toBe(0);
  });
});
