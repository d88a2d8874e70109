// Evidence was always redacted; the rest of the state was not: an AWS key given to `next` went raw
// into the committed progress.yaml, its recent_next_actions, the event log and every boot. Every
// text that reaches the disk or a model passes the same redactor now, and `evidence add` keeps
// what it copies private (the source's mode) and inside the repository unless told otherwise.
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitdir, runCli, testdir, writeFiles } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

// The secrets that fit on one line (the commands fold whitespace in titles).
const KINDS = Object.keys(SECRETS).filter((kind) => !SECRETS[kind]!.includes('\n'));

function expectNoSecret(text: string, where: string): void {
  for (const kind of KINDS)
    expect(text, `${kind} in ${where}`).not.toContain(sensitivePart(kind, SECRETS[kind]!));
}

function readTree(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('secrets in the state outside evidence', () => {
  let repo: string;
  const printed: string[] = [];
  beforeAll(async () => {
    repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    expect((await runCli(repo, ['init'])).code).toBe(0);
    const all = KINDS.map((kind) => SECRETS[kind]!).join(' ');
    for (const args of [
      ['next', `deploy with ${all}`],
      ['next', `then ${SECRETS.aws_access_key}`],
      // A title holds at most 500 characters: one item per secret.
      ...KINDS.map((kind, i) => ['plan', 'add', `rotate ${SECRETS[kind]!}`, '--id', `t${i + 1}`]),
      ['memory', 'add', `the key is ${all}`],
      ['memory', 'add', `durable ${all}`, '--durable'],
      ['remind', `tell the user about ${all}`],
      ['goal', `Ship with ${all}`],
    ]) {
      const result = await runCli(repo, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      printed.push(result.stdout, result.stderr);
    }
    const plan = await runCli(repo, [
      'plan',
      'block',
      't1',
      '--note',
      `waiting for ${SECRETS.github_token}`,
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    printed.push(plan.stdout);
  });

  it('stores none in progress.yaml (recent_next_actions included) or goals.md', () => {
    const progress = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    expect(progress).toContain('[REDACTED:aws_access_key]');
    expect(progress).toMatch(/recent_next_actions:[\s\S]*\[REDACTED:/);
    expectNoSecret(progress, 'progress.yaml');
    expectNoSecret(readFileSync(join(repo, '.agent/state/goals.md'), 'utf8'), 'goals.md');
  });

  it('logs none in events.jsonl and prints none', () => {
    const events = readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8');
    expect(events).toContain('[REDACTED:');
    expectNoSecret(events, 'events.jsonl');
    expectNoSecret(printed.join('\n'), 'the commands’ output');
  });

  it('boots with none, and leaves none anywhere under .agent/', async () => {
    const boot = await runCli(repo, ['boot', '--fast', '--level', '3']);
    expect(boot.code).toBe(0);
    expect(boot.stdout).toContain('[REDACTED:');
    expectNoSecret(boot.stdout, 'boot');
    const json = await runCli(repo, ['boot', '--fast', '--json']);
    expectNoSecret(json.stdout, 'boot --json');
    expectNoSecret(readTree(join(repo, '.agent')), '.agent/');
  });

  it('keeps a secret written into goals.md by hand out of the boot and the status bar', async () => {
    const hand = gitdir();
    expect((await runCli(hand, ['init'])).code).toBe(0);
    writeFiles(hand, {
      '.agent/state/goals.md': `# Task\n\nShip it; the staging key is ${SECRETS.aws_access_key}.\n\n## Constraints\n\n- ${SECRETS.password}\n`,
    });
    const boot = await runCli(hand, ['boot', '--fast', '--dry-run']);
    expect(boot.stdout).toContain('[REDACTED:aws_access_key]');
    expectNoSecret(boot.stdout, 'boot');
    const status = await runCli(hand, ['status', '--format', 'xml']);
    expectNoSecret(status.stdout, 'status --format xml');
  });
});

describe('evidence add --raw and --body-file', () => {
  it('keeps the mode of the raw file: 0600 stays 0600', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init'])).code).toBe(0);
    writeFiles(repo, { 'private.log': `token ${SECRETS.github_token}\n`, 'public.log': 'ok\n' });
    chmodSync(join(repo, 'private.log'), 0o600);
    chmodSync(join(repo, 'public.log'), 0o644);
    for (const [file, mode] of [
      ['private.log', 0o600],
      ['public.log', 0o644],
    ] as const) {
      const result = await runCli(repo, [
        'evidence',
        'add',
        '--kind',
        'test',
        '--summary',
        file,
        '--raw',
        file,
        '--json',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const ref = (JSON.parse(result.stdout) as { refs: { path: string }[] }).refs[0]!;
      expect(statSync(join(repo, ref.path)).mode & 0o777, file).toBe(mode);
    }
  });

  it('refuses a file outside the repository unless --allow-outside is given, writing nothing', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init'])).code).toBe(0);
    const outside = join(testdir({ 'shadow.txt': `root:${SECRETS.password}\n` }), 'shadow.txt');
    mkdirSync(join(repo, 'logs'));
    symlinkSync(outside, join(repo, 'logs', 'link.txt'));
    const before = readTree(join(repo, '.agent'));
    for (const args of [
      ['--raw', outside],
      ['--body-file', outside],
      ['--raw', 'logs/link.txt'],
      ['--body-file', '../' + outside.split('/').slice(-2).join('/')],
    ]) {
      const result = await runCli(repo, [
        'evidence',
        'add',
        '--kind',
        'note',
        '--summary',
        'x',
        ...args,
      ]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/is outside the repository .*--allow-outside/);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readTree(join(repo, '.agent'))).toBe(before);
    const allowed = await runCli(repo, [
      'evidence',
      'add',
      '--kind',
      'note',
      '--summary',
      'x',
      '--body-file',
      outside,
      '--allow-outside',
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expectNoSecret(readTree(join(repo, '.agent')), '.agent/');
  });
});

describe('a secret in a hand-written comment of progress.yaml', () => {
  it('is redacted when agent-state next rewrites the file', async () => {
    const repo = gitdir({ 'README.md': '# x\n' });
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    const file = join(repo, '.agent', 'state', 'progress.yaml');
    const token = SECRETS.github_token!;
    writeFileSync(file, `# deploy with ${token}\n${readFileSync(file, 'utf8')}`);
    expect((await runCli(repo, ['next', 'Write the test'])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# deploy with');
    expect(text).not.toContain(token);
  });
});
